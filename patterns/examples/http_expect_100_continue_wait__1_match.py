#!/usr/bin/env python3
"""PHP 8.4 export worker: libcurl debug output (CURLOPT_DEBUGFUNCTION) logged through Monolog's
LineFormatter, one uid per job. Archives above 1 MiB are sent with "Expect: 100-continue"; the
object store's front proxy never answers 100, so curl waits its 1 s expect-100 timeout before
sending the body. Small thumbnails go without the header and do not wait."""
import random
from datetime import datetime, timedelta, timezone

random.seed(1400)
t = datetime(2026, 11, 29, 14, 0, 0, tzinfo=timezone.utc)
out = []


def ts(x):
    return x.strftime('%Y-%m-%dT%H:%M:%S.%f') + '+00:00'


def line(x, chan, lvl, msg, ctx, uid):
    out.append(f'[{ts(x)}] {chan}.{lvl}: {msg} {ctx} {{"uid":"{uid}"}}')


def uid():
    return '%07x' % random.getrandbits(28)


seq = 412
for job in range(13):
    u = uid()
    small = job in (3, 7, 10)
    seq += 1
    if small:
        name = f'thumb-{seq}.webp'
        size = random.randint(60_000, 240_000)
        line(t, 'app', 'INFO', 'Uploading thumbnail', f'{{"file":"{name}","bytes":{size},"bucket":"thumbs"}}', u)
        t += timedelta(microseconds=random.randint(180, 420))
        line(t, 'curl', 'DEBUG', f'> PUT /thumbs/{name} HTTP/1.1 Host: objects.internal:9000 User-Agent: exporter/2.3 Accept: */* '
             f'Content-Type: image/webp Content-Length: {size}', '[]', u)
        t += timedelta(microseconds=random.randint(1800, 5200))
        line(t, 'curl', 'DEBUG', f'* upload completely sent off: {size} bytes', '[]', u)
        t += timedelta(microseconds=random.randint(900, 3100))
        line(t, 'curl', 'DEBUG', '< HTTP/1.1 201 Created', '[]', u)
    else:
        name = f'export-20261129-{seq:04d}.tar.gz'
        size = random.randint(2_200_000, 9_800_000)
        line(t, 'app', 'INFO', 'Uploading export archive', f'{{"file":"{name}","bytes":{size},"bucket":"exports"}}', u)
        t += timedelta(microseconds=random.randint(200, 520))
        line(t, 'curl', 'DEBUG', f'> PUT /exports/{name} HTTP/1.1 Host: objects.internal:9000 User-Agent: exporter/2.3 Accept: */* '
             f'Content-Type: application/gzip Content-Length: {size} Expect: 100-continue', '[]', u)
        # curl's expect-100 timer (1000 ms), woken by poll() a fraction of a millisecond late
        t += timedelta(microseconds=1_000_000 + random.randint(80, 1400))
        line(t, 'curl', 'DEBUG', '* Done waiting for 100-continue', '[]', u)
        # body at ~110 MB/s on the LAN
        t += timedelta(microseconds=int(size / 110.0) + random.randint(0, 4000))
        line(t, 'curl', 'DEBUG', f'* upload completely sent off: {size} bytes', '[]', u)
        t += timedelta(microseconds=random.randint(1500, 6000))
        line(t, 'curl', 'DEBUG', '< HTTP/1.1 200 OK', '[]', u)
    t += timedelta(microseconds=random.randint(150, 600))
    line(t, 'app', 'INFO', 'Upload finished', f'{{"file":"{name}","status":{201 if small else 200}}}', u)
    t += timedelta(milliseconds=random.randint(300, 2600))

print('\n'.join(out))
