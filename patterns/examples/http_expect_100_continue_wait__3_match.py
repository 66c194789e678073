#!/usr/bin/env python3
"""A nightly artifact-upload script: a bash loop that POSTs each build artifact with curl and logs
one line per upload with curl's own -w timers (seconds). Artifacts over 1 MiB make curl 7.88 send
"Expect: 100-continue"; the upload endpoint (an HTTP/1.0 server behind no proxy) never answers
100, so each large upload waits curl's 1 s expect-100 timeout before the body goes (time_connect
stays sub-millisecond, time_starttransfer jumps by 1 s). Small checksums and manifests do not wait."""
import random
from datetime import datetime, timedelta, timezone

random.seed(7100)
t = datetime(2026, 11, 30, 2, 15, 0, tzinfo=timezone.utc)
out = []
for i in range(1, 29):
    large = i % 3 != 1
    name = f"build-{4811 + i // 3}.{'tar.zst' if large else 'sha256'}"
    size = random.randint(1_100_000, 3_200_000) if large else random.randint(96, 4000)
    dns = random.uniform(0.000018, 0.000045)
    connect = dns + random.uniform(0.00012, 0.00031)
    pre = connect + random.uniform(0.00002, 0.00006)
    wait = 1.0 + random.uniform(0.0001, 0.0016) if large else 0.0
    body = size / 112e6                                  # the LAN's ~112 MB/s
    start = pre + wait + body + random.uniform(0.0002, 0.0012)
    total = start + random.uniform(0.00005, 0.0003)
    t += timedelta(seconds=total)
    out.append(f"{t.strftime('%Y-%m-%dT%H:%M:%S.%f')}Z level=info job=artifact-sync req={i} op=upload "
               f"file={name} status=201 size_upload={size} time_namelookup={dns:.6f} "
               f"time_connect={connect:.6f} time_pretransfer={pre:.6f} "
               f"time_starttransfer={start:.6f} time_total={total:.6f}")
    t += timedelta(milliseconds=random.randint(20, 90))   # the loop's own work between uploads
print("\n".join(out))
