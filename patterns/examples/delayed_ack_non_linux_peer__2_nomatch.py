#!/usr/bin/env python3
"""Near miss: a Windows sync agent (logfmt) uploads 15 chunks to a Linux server with Nagle on
(tcp_no_delay=false), each PutChunk written as header, then body. Here the host that delays the ACK
is the Linux server (CONFIG_HZ=250): its delayed-ACK timer is armed when the header arrives and
fires 11 ticks (44 ms) after the start of the tick in which it was armed, so the body, and the
answer, come 40-44 ms after the call starts: 44 ms less the time since the last tick, which is
small here, because each call follows the previous answer (released on a tick) after 0.1-0.9 ms of
client work (once in a while 2-4 ms). The first two calls are fast: a new Linux connection starts
in quick-ack mode. The client's OS is Windows, but the stall is Linux's."""
import math
import random
from datetime import datetime, timedelta, timezone

random.seed(402)
T0 = datetime(2026, 11, 29, 12, 10, 0, tzinfo=timezone.utc)
TICK, OFFSET = 4.0, 1.37           # the server's jiffies, against the log's clock (ms)
rid = '%016x' % random.getrandbits(64)
out = []
ms = 0.0


def line(lvl, msg):
    out.append(f'{(T0 + timedelta(milliseconds=ms)).strftime("%Y-%m-%dT%H:%M:%S.%f")}Z level={lvl} reqId={rid} msg="{msg}"')


def delack_fires(arrival):
    j = math.floor((arrival - OFFSET) / TICK)          # jiffy when the timer is armed
    return OFFSET + (j + 11) * TICK + random.uniform(0.003, 0.02)


line('debug', 'sync-agent/3.2 (Windows NT 10.0; Win64; x64) connected to sync.example.net:443 tcp_no_delay=false')
ms += random.uniform(0.8, 1.3)
for c in range(1, 16):
    line('debug', f'sync call start op=PutChunk chunk={c} peer=sync.example.net:443 os=Windows')
    start = ms
    if c <= 2:
        ms += random.uniform(0.08, 2.7)                 # quick-ack: header ACKed at once
    else:
        ms = delack_fires(ms + 0.03) + random.uniform(0.08, 0.2)
    line('debug', f'sync call done op=PutChunk chunk={c} status=OK latency_ms={ms - start:.1f}')
    ms += random.uniform(2.0, 4.0) if random.random() < 0.15 else random.uniform(0.1, 0.9)
line('info', 'sync pass complete chunks=15')
print('\n'.join(out))
