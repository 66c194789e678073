#!/usr/bin/env python3
"""Service (key=value lines) that stores rendered fragments in a local cache sidecar over
loopback (MSS 65483) with Nagle on. Its client copies bodies below 4096 bytes into the header
buffer (one write), and writes larger bodies separately: the header leaves at once, the body
(below the MSS) is held by Nagle until the sidecar's delayed ACK, 44 ms at CONFIG_HZ=250 (once
48 ms). Small puts and gets are answered in a fraction of a millisecond."""
import random
from datetime import datetime, timedelta, timezone

random.seed(300)
t = datetime(2026, 11, 29, 11, 30, 0, tzinfo=timezone.utc)
out = []


def line(lvl, rid, msg):
    out.append(f'{t.strftime("%Y-%m-%dT%H:%M:%S.%f")}Z level={lvl} reqId={rid} msg="{msg}"')


def adv(a, b):
    global t
    t += timedelta(microseconds=random.randint(a, b))


pages = ['Main_Page', 'Release_notes', 'Pricing', 'Status', 'API_reference', 'Changelog']
sat_done = False
for r in range(3):
    rid = '%016x' % random.getrandbits(64)
    page = pages[r]
    line('info', rid, f'GET /render/{page} handler=Render')
    adv(200, 600)
    for k in range(12):
        frag = f'{page}:frag{k}'
        adv(300, 2400)   # rendering work
        if k % 4 == 3:
            line('debug', rid, f'tplcache GET key={frag}')
            adv(90, 260)
            line('debug', rid, 'tplcache GET hit')
            continue
        size = random.choice([random.randint(5200, 30000), random.randint(5200, 30000), random.randint(300, 3900)])
        line('debug', rid, f'tplcache PUT key={frag} body_bytes={size}')
        if size >= 4096 and not (r == 0 and k < 2):       # quick-ack on a fresh connection
            if not sat_done and r == 1 and k == 5:
                stall = 48000 - random.randint(40, 350)
                sat_done = True
            else:
                stall = 44000 - random.randint(40, 420)
            t += timedelta(microseconds=stall)
        else:
            adv(80, 240)
        line('debug', rid, f'tplcache PUT ok key={frag}')
    adv(300, 900)
    line('info', rid, f'GET /render/{page} done status=200')
    t += timedelta(milliseconds=random.randint(200, 900))

print('\n'.join(out))
