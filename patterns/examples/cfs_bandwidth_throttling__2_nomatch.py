#!/usr/bin/env python3
"""Near miss: a message API whose token-bucket rate limiter is empty for three noisy tenants, so every
POST logs "throttled by rate limiter" and is queued for delayed delivery (a Redis push, 0.2-4 ms)
instead of being sent. Requests arrive at random (50-360 ms apart) and are answered within a few
milliseconds: the word "throttled" appears, but no thread ever stalls and nothing recurs on a 100
ms clock."""
import random
from datetime import datetime, timedelta, timezone

random.seed(1604)
t = datetime(2026, 11, 29, 17, 20, 0, tzinfo=timezone.utc)
out = []


def line(lvl, rid, msg):
    out.append(f'{t.strftime("%Y-%m-%dT%H:%M:%S.%f")}Z level={lvl} reqId={rid} msg="{msg}"')


def adv(lo_us, hi_us):
    global t
    t += timedelta(microseconds=random.randint(lo_us, hi_us))


for n in range(10):
    rid = '%016x' % random.getrandbits(64)
    line('info', rid, 'POST /api/messages handler=Send')
    adv(200, 2200)                                   # auth, tenant lookup, bucket check
    line('warn', rid, f'client=tenant-{17 + n % 3} throttled by rate limiter, tokens=0')
    adv(300, 4200)                                   # LPUSH onto the delayed-delivery queue
    line('debug', rid, 'queued message for delayed delivery')
    adv(100, 1900)
    line('info', rid, 'POST /api/messages done status=202')
    adv(50000, 360000)                               # next request arrives

print('\n'.join(out))
