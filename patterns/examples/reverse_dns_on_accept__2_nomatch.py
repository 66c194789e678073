#!/usr/bin/env python3
"""Near miss: a TCP front proxy accepts a client connection and then resolves its upstream's name
forward; the stub resolver loses a reply and waits its 5 s timeout. The 5.00 s gaps follow the
'resolving upstream' line: a forward lookup by the proxy, not a reverse lookup of the client."""
import random
from datetime import datetime, timedelta, timezone

random.seed(1201)
t = datetime(2026, 11, 29, 10, 0, 0, tzinfo=timezone.utc)
ev = []


def line(x, lvl, rid, msg):
    ev.append((x, f'{x.strftime("%Y-%m-%dT%H:%M:%S.%f")}Z level={lvl} request_id={rid} msg="{msg}"'))


for i in range(12):
    rid = '%016x' % random.getrandbits(64)
    ip = f'198.51.100.{random.randint(10, 240)}:{random.randint(40000, 64000)}'
    line(t, 'info', rid, f'accepted connection from {ip} listener=:5433')
    t += timedelta(microseconds=random.randint(80, 300))
    line(t, 'debug', rid, 'resolving upstream pg-ro.db.internal')
    t += timedelta(microseconds=5_000_000 + random.randint(200, 1800))
    line(t, 'debug', rid, 'upstream pg-ro.db.internal resolved addrs=2')
    t += timedelta(microseconds=random.randint(300, 1200))
    line(t, 'info', rid, 'proxying to 10.20.0.15:5432')
    line(t + timedelta(seconds=random.uniform(0.5, 6)), 'info', rid,
         f'connection closed bytes_in={random.randint(900, 90000)} bytes_out={random.randint(2000, 400000)}')
    t += timedelta(seconds=random.uniform(0.3, 3))

ev.sort(key=lambda e: e[0])
print('\n'.join(l for _, l in ev))
