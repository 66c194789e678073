#!/usr/bin/env python3
"""Near miss: the same PHP export worker and the same Expect: 100-continue uploads, but the
object store answers "100 Continue" at once; the 1.0x s gaps are in connect() on fresh
connections (a dropped SYN retransmitted after TCP_TIMEOUT_INIT, 1.000-1.032 s at HZ=250)."""
import random
from datetime import datetime, timedelta, timezone

random.seed(1401)
t = datetime(2026, 11, 29, 15, 0, 0, tzinfo=timezone.utc)
out = []


def ts(x):
    return x.strftime('%Y-%m-%dT%H:%M:%S.%f') + '+00:00'


def line(x, chan, lvl, msg, ctx, uid):
    out.append(f'[{ts(x)}] {chan}.{lvl}: {msg} {ctx} {{"uid":"{uid}"}}')


seq = 530
for job in range(9):
    u = '%07x' % random.getrandbits(28)
    seq += 1
    name = f'export-20261129-{seq:04d}.tar.gz'
    size = random.randint(2_200_000, 9_800_000)
    line(t, 'app', 'INFO', 'Uploading export archive', f'{{"file":"{name}","bytes":{size},"bucket":"exports"}}', u)
    t += timedelta(microseconds=random.randint(200, 500))
    line(t, 'curl', 'DEBUG', '*   Trying 10.40.2.15:9000...', '[]', u)
    # first SYN lost: the retransmission leaves after TCP_TIMEOUT_INIT, up to one 32 ms granule late
    t += timedelta(microseconds=1_000_000 + random.randint(2500, 31500))
    line(t, 'curl', 'DEBUG', '* Connected to objects.internal (10.40.2.15) port 9000', '[]', u)
    t += timedelta(microseconds=random.randint(60, 180))
    line(t, 'curl', 'DEBUG', f'> PUT /exports/{name} HTTP/1.1 Host: objects.internal:9000 User-Agent: exporter/2.3 Accept: */* '
         f'Content-Type: application/gzip Content-Length: {size} Expect: 100-continue', '[]', u)
    t += timedelta(microseconds=random.randint(400, 1300))
    line(t, 'curl', 'DEBUG', '< HTTP/1.1 100 Continue', '[]', u)
    t += timedelta(microseconds=int(size / 110.0) + random.randint(0, 4000))
    line(t, 'curl', 'DEBUG', f'* upload completely sent off: {size} bytes', '[]', u)
    t += timedelta(microseconds=random.randint(1500, 6000))
    line(t, 'curl', 'DEBUG', '< HTTP/1.1 200 OK', '[]', u)
    t += timedelta(microseconds=random.randint(150, 600))
    line(t, 'app', 'INFO', 'Upload finished', f'{{"file":"{name}","status":200}}', u)
    t += timedelta(milliseconds=random.randint(300, 2600))

print('\n'.join(out))
