#!/usr/bin/env python3
"""A checkout service (logfmt) with a database pool that opens a connection to pg-main when none is
idle, and warns when connect() took long. The app runs in containers behind SNAT, and under load
two new flows now and then race for the same SNAT port: the loser's conntrack insert fails and its
SYN is dropped. The client retransmits the SYN after TCP_TIMEOUT_INIT = 1 s, which the timer wheel
(level 1 at CONFIG_HZ=250, 32 ms granules, rounded up) fires 1.000-1.032 s after the first try; the
retry gets through, and the handshake adds a LAN round trip (0.2-0.5 ms), so connect takes
1.0-1.033 s. Twice the retry was dropped too: with classic exponential backoff
(tcp_syn_linear_timeouts = 0) the next SYN leaves 2 s later (2.000-2.032 s), so those connects take
about 3.0-3.06 s. New connections that win the race connect in 0.3-2 ms, and requests that find an
idle connection never connect. 24 requests: 11 slow connects, 6 fast ones, 7 reuses."""
import math
import random
from datetime import datetime, timedelta, timezone

random.seed(801)
T0 = datetime(2026, 11, 29, 14, 0, 0, tzinfo=timezone.utc)
TICK, OFFSET = 4.0, 0.9
out = []
ms = 0.0
rid = ''


def line(lvl, msg):
    out.append(f'{(T0 + timedelta(milliseconds=ms)).strftime("%Y-%m-%dT%H:%M:%S.%f")}Z level={lvl} reqId={rid} msg="{msg}"')


def syn_timer(armed, ticks):
    # the SYN retransmit timer on the wheel's level 1 (8-tick granules), rounded up
    j = math.floor((armed - OFFSET) / TICK)
    return OFFSET + (math.floor((j + ticks) / 8) + 1) * 8 * TICK + random.uniform(0.003, 0.02)


kinds = ['slow'] * 9 + ['slow3'] * 2 + ['fast'] * 6 + ['idle'] * 7
random.shuffle(kinds)
for kind in kinds:
    rid = '%016x' % random.getrandbits(64)
    line('info', 'POST /checkout handler=Checkout')
    ms += random.uniform(0.2, 1.0)
    if kind != 'idle':
        line('debug', 'db pool: no idle connection, opening new connection to pg-main.internal:5432')
        start = ms
        if kind == 'fast':
            ms += random.uniform(0.3, 2.0)
            line('debug', f'db pool: connected to pg-main.internal:5432 connect_time={(ms - start) / 1000:.3f}s')
        else:
            syn = syn_timer(start, 250)                   # 1 s: TCP_TIMEOUT_INIT
            if kind == 'slow3':
                syn = syn_timer(syn, 500)                 # lost again: 2 s
            ms = syn + random.uniform(0.2, 0.5)           # SYN-ACK, ACK
            line('warn', f'db pool: connected to pg-main.internal:5432 connect_time={(ms - start) / 1000:.3f}s')
        ms += random.uniform(1.0, 3.0)                    # startup packet, SCRAM auth
    else:
        ms += random.uniform(0.1, 0.4)
    line('debug', 'INSERT INTO orders ... rows=1')
    ms += random.uniform(0.2, 1.5)
    line('info', 'POST /checkout done status=201')
    ms += random.uniform(300, 2000)
print('\n'.join(out))
