#!/usr/bin/env python3
"""An orders API (logfmt) calls its stock service 10.0.9.21:8080 once per request, one 1320-byte
request segment on a pooled keep-alive connection, and logs tcp_info when a call is slow. A faulty
switch port drops a segment now and then. When the request segment is lost, nothing comes back
until the retransmission timer fires: RTO = srtt + max(rttvar, TCP_RTO_MIN) = 204 ms (51 ticks at
CONFIG_HZ=250, as ss shows rto:204), and the timer wheel fires it 0-4 ms late (level 0: one-tick
granules, rounded up), so the answer arrives 204.5-209 ms after the request. One call lost the
retransmission too: the doubled RTO, 408 ms, sits on the wheel's level 1 (32 ms granules at HZ=250)
and fires 408-440 ms after the first retransmission, 615-650 ms in all (retransmits=2, rto_ms=408).
Calls that lose nothing take 0.6-2.4 ms. 20 requests, 11 of them with a loss."""
import math
import random
from datetime import datetime, timedelta, timezone

random.seed(601)
T0 = datetime(2026, 11, 29, 13, 0, 0, tzinfo=timezone.utc)
TICK, OFFSET = 4.0, 2.2
out = []
ms = 0.0
rid = ''


def line(lvl, msg):
    out.append(f'{(T0 + timedelta(milliseconds=ms)).strftime("%Y-%m-%dT%H:%M:%S.%f")}Z level={lvl} reqId={rid} msg="{msg}"')


def timer(armed, ticks, gran):
    # jiffies timer: expiry rounded up to the next granule of its wheel level
    j = math.floor((armed - OFFSET) / TICK)
    fire = (math.floor((j + ticks) / gran) + 1) * gran
    return OFFSET + fire * TICK + random.uniform(0.003, 0.02)


losses = [1] * 10 + [2] + [0] * 9
random.shuffle(losses)
for lost in losses:
    rid = '%016x' % random.getrandbits(64)
    line('info', 'GET /api/v2/orders handler=OrdersList')
    ms += random.uniform(0.2, 2.4)
    line('debug', 'upstream request sent peer=10.0.9.21:8080 path=/stock/batch bytes=1320')
    start = ms
    if lost:
        ms = timer(start, 51, 1)                          # first retransmission
        if lost == 2:
            ms = timer(ms, 102, 8)                        # lost again: doubled RTO, level 1
        ms += random.uniform(0.3, 1.0)                    # the stock service answers
        line('warn', f'upstream response received peer=10.0.9.21:8080 status=200 elapsed_ms={ms - start:.1f} '
             f'tcp_info retransmits={lost} rto_ms={204 * lost}')
    else:
        ms += random.uniform(0.6, 2.4)
        line('debug', f'upstream response received peer=10.0.9.21:8080 status=200 elapsed_ms={ms - start:.1f}')
    ms += random.uniform(0.3, 1.2)
    line('debug', 'rendered orders=25')
    ms += random.uniform(0.1, 1.2)
    line('info', 'GET /api/v2/orders done status=200')
    ms += random.uniform(250, 1500)
print('\n'.join(out))
