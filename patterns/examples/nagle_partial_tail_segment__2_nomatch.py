#!/usr/bin/env python3
"""Near miss: a client that always writes header and body separately, with Nagle on, and only
small bodies (120-900 bytes). Every put stalls 44 ms whatever its size (write-write-read at
CONFIG_HZ=250); nothing depends on the payload crossing a threshold."""
import random
from datetime import datetime, timedelta, timezone

random.seed(301)
t = datetime(2026, 11, 29, 11, 45, 0, tzinfo=timezone.utc)
out = []


def line(lvl, rid, msg):
    out.append(f'{t.strftime("%Y-%m-%dT%H:%M:%S.%f")}Z level={lvl} reqId={rid} msg="{msg}"')


def adv(a, b):
    global t
    t += timedelta(microseconds=random.randint(a, b))


pages = ['Main_Page', 'Release_notes', 'Pricing', 'Status']
for r in range(3):
    rid = '%016x' % random.getrandbits(64)
    page = pages[r]
    line('info', rid, f'GET /render/{page} handler=Render')
    adv(200, 600)
    if r == 0:
        line('debug', rid, 'tplcache connect peer=127.0.0.1:7311 tcp_no_delay=false')
        adv(100, 300)
    for k in range(12):
        frag = f'{page}:frag{k}'
        adv(300, 2400)
        size = random.randint(120, 900)
        line('debug', rid, f'tplcache PUT key={frag} body_bytes={size}')
        if r == 0 and k < 2:
            adv(80, 240)
        else:
            t += timedelta(microseconds=44000 - random.randint(40, 420))
        line('debug', rid, f'tplcache PUT ok key={frag}')
    adv(300, 900)
    line('info', rid, f'GET /render/{page} done status=200')
    t += timedelta(milliseconds=random.randint(200, 900))

print('\n'.join(out))
