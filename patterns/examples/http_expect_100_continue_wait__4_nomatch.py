#!/usr/bin/env python3
"""The same artifact-upload script on a day when the upload host's accept queue overflows: some
connections wait for a retransmitted SYN, so those uploads take 1 s more, but curl's own timers put
the second in time_connect (the handshake), not between the headers and the body. Uploads are
small enough that curl sends no Expect header. Not the expect-100 timer."""
import random
from datetime import datetime, timedelta, timezone

random.seed(7101)
t = datetime(2026, 11, 30, 2, 15, 0, tzinfo=timezone.utc)
out = []
for i in range(1, 29):
    name = f"build-{4811 + i // 3}.{'manifest.json' if i % 2 else 'sha256'}"
    size = random.randint(96, 60000)
    dns = random.uniform(0.000018, 0.000045)
    syn_lost = i % 3 == 2
    connect = dns + random.uniform(0.00012, 0.00031) + (1.0 + random.uniform(0.002, 0.028) if syn_lost else 0)
    pre = connect + random.uniform(0.00002, 0.00006)
    start = pre + size / 112e6 + random.uniform(0.0002, 0.0012)
    total = start + random.uniform(0.00005, 0.0003)
    t += timedelta(seconds=total)
    out.append(f"{t.strftime('%Y-%m-%dT%H:%M:%S.%f')}Z level=info job=artifact-sync req={i} op=upload "
               f"file={name} status=201 size_upload={size} time_namelookup={dns:.6f} "
               f"time_connect={connect:.6f} time_pretransfer={pre:.6f} "
               f"time_starttransfer={start:.6f} time_total={total:.6f}")
    t += timedelta(milliseconds=random.randint(20, 90))
print("\n".join(out))
