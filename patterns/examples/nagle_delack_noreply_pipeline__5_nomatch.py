#!/usr/bin/env python3
"""Near miss: a healthy MediaWiki page view on MemcachedPeclBagOStuff with allow_tcp_nagle_delay =
false (TCP_NODELAY on, as in Wikimedia's configuration): each set goes out at once, the get right
behind it is answered in one LAN round trip (0.1-0.9 ms), and the page does 0.3-4 ms of work
between lookups. Memcached set/get lines, but only small irregular gaps."""
import random
from datetime import datetime, timedelta, timezone

random.seed(205)
t = datetime(2026, 11, 29, 10, 50, 0, tzinfo=timezone.utc)
rid = '%024x' % random.getrandbits(96)
out = []


def line(chan, msg):
    out.append(f'{t.strftime("%Y-%m-%d %H:%M:%S.%f")} [{rid}] appserver1 mywiki 1.39.10 {chan} DEBUG: {msg}')


def adv(lo_us, hi_us):
    global t
    t += timedelta(microseconds=random.randint(lo_us, hi_us))


line('wfDebug', 'Start request GET /wiki/Main_Page')
for page in range(300, 308):
    adv(300, 4000)                         # parsing, hooks
    line('memcached', f'MemcachedPeclBagOStuff debug: set(mywiki:page-touched:{page})')
    adv(30, 350)
    line('memcached', f'MemcachedPeclBagOStuff debug: get(mywiki:revision-text:{page})')
    adv(100, 900)                          # one round trip
    line('memcached', 'MemcachedPeclBagOStuff debug: result: NOT FOUND')
adv(1000, 3000)
line('wfDebug', 'Request ended normally')
print('\n'.join(out))
