#!/usr/bin/env python3
"""An RPC client (logfmt) with TCP_NODELAY off (tcp_no_delay=false) sends each Catalog.GetItem call as
a 58-byte header and then the body, two writes, and waits for the answer (write-write-read). The
header leaves at once; the body is a second small segment while the first is unacknowledged, so
Nagle holds it. The server (Linux, CONFIG_HZ=250) has an incomplete request and nothing to send, so
it arms its delayed-ACK timer, which fires 11 ticks (44 ms: TCP_DELACK_MIN plus the timer wheel's
extra tick) after the start of the tick in which the header arrived; the body and the answer follow
within 0.1-0.3 ms. Each call starts 0.1-0.6 ms after the previous answer (2-4 ms after an
item-cache miss), so the header arrives shortly after a tick and the calls take 40.4-43.9 ms. The
first two calls are fast: a new connection starts in quick-ack mode. 16 calls."""
import math
import random
from datetime import datetime, timedelta, timezone

random.seed(101)
T0 = datetime(2026, 11, 29, 11, 0, 0, tzinfo=timezone.utc)
TICK, OFFSET = 4.0, 3.12
rid = '%016x' % random.getrandbits(64)
out = []
ms = 0.0


def line(lvl, msg):
    out.append(f'{(T0 + timedelta(milliseconds=ms)).strftime("%Y-%m-%dT%H:%M:%S.%f")}Z level={lvl} reqId={rid} msg="{msg}"')


def delack_fires(arrival):
    j = math.floor((arrival - OFFSET) / TICK)
    return OFFSET + (j + 11) * TICK + random.uniform(0.003, 0.02)


line('debug', 'rpc connect peer=10.0.4.12:9090 tcp_no_delay=false')
ms += random.uniform(0.9, 1.6)
sku = 88102
for c in range(1, 17):
    line('debug', f'rpc call start method=Catalog.GetItem id={c} peer=10.0.4.12:9090 writes=2 header_bytes=58 '
         f'body_bytes={143 + 37 * c} tcp_no_delay=false')
    start = ms
    if c <= 2:
        ms += random.uniform(0.08, 2.8)                        # quick-ack
    else:
        ms = delack_fires(ms + random.uniform(0.03, 0.06)) + random.uniform(0.1, 0.3)
    line('debug', f'rpc call done method=Catalog.GetItem id={c} status=OK latency_ms={ms - start:.1f}')
    if c % 4 == 3:
        ms += random.uniform(0.1, 0.3)
        line('info', f'item cache miss sku={sku}, merging price data')
        sku += 4
        ms += random.uniform(2.0, 4.0)
    else:
        ms += random.uniform(0.1, 0.6)
line('info', 'request complete calls=16')
print('\n'.join(out))
