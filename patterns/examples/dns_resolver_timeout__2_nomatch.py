#!/usr/bin/env python3
"""Near miss: a thumbnail queue worker (logfmt) finds its queue empty on every pass and backs off with
a 5 s sleep (time.sleep(5): late by the timer slack and the wake-up, 0.1-1.0 ms) before it fetches
again. The gaps are 5.0 s like a resolver timeout, but no lookup is involved: no getaddrinfo or
resolver line anywhere. 11 passes."""
import random
from datetime import datetime, timedelta, timezone

random.seed(1002)
t = datetime(2026, 11, 29, 15, 20, 0, tzinfo=timezone.utc)
out = []
rid = ''


def line(lvl, msg):
    out.append(f'{t.strftime("%Y-%m-%dT%H:%M:%S.%f")}Z level={lvl} reqId={rid} msg="{msg}"')


def adv(lo_us, hi_us):
    global t
    t += timedelta(microseconds=random.randint(lo_us, hi_us))


for p in range(1, 12):
    rid = '%016x' % random.getrandbits(64)
    line('info', f'worker pass={p} checking queue=thumbnails')
    adv(200, 2300)                        # LLEN thumbnails -> 0
    line('debug', 'queue=thumbnails empty, backing off 5s')
    adv(5000100, 5001000)                 # sleep(5)
    line('debug', 'queue=thumbnails woke up, fetching batch size=50')
    adv(300, 3200)                        # LRANGE, nothing
    line('info', f'worker pass={p} done jobs=0')
    adv(150, 900)
print('\n'.join(out))
