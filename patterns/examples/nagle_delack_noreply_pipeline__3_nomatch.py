#!/usr/bin/env python3
"""Near miss: a C++ ledger client (logfmt) with TCP_NODELAY off sends each Ledger.Append RPC as a
58-byte header and then the body, two writes, and waits for the answer (write-write-read). The body
is held by Nagle until the server acknowledges the header; the server (Linux, CONFIG_HZ=250) has
nothing to send yet and arms its delayed-ACK timer, which fires 11 ticks (44 ms) after the start of
the tick in which the header arrived. Calls follow each other after 0.1-0.6 ms (2-4 ms after an
item-cache miss), so the calls take 40.3-43.9 ms; the first two are fast because a new connection
starts in quick-ack mode. 44 ms on every call, but no memcached and no noreply write: this is
write-write-read."""
import math
import random
from datetime import datetime, timedelta, timezone

random.seed(203)
T0 = datetime(2026, 11, 29, 11, 10, 0, tzinfo=timezone.utc)
TICK, OFFSET = 4.0, 0.74
rid = '%016x' % random.getrandbits(64)
out = []
ms = 0.0


def line(lvl, msg):
    out.append(f'{(T0 + timedelta(milliseconds=ms)).strftime("%Y-%m-%dT%H:%M:%S.%f")}Z level={lvl} reqId={rid} msg="{msg}"')


def delack_fires(arrival):
    j = math.floor((arrival - OFFSET) / TICK)
    return OFFSET + (j + 11) * TICK + random.uniform(0.003, 0.02)


line('debug', 'rpc connect peer=10.0.7.3:7000 tcp_no_delay=false')
ms += random.uniform(0.9, 1.6)
sku = 88102
for c in range(1, 16):
    line('debug', f'rpc call start method=Ledger.Append id={c} peer=10.0.7.3:7000 writes=2 header_bytes=58 '
         f'body_bytes={143 + 37 * c} tcp_no_delay=false')
    start = ms
    if c <= 2:
        ms += random.uniform(0.08, 2.8)                        # quick-ack
    else:
        ms = delack_fires(ms + random.uniform(0.03, 0.06)) + random.uniform(0.1, 0.3)
    line('debug', f'rpc call done method=Ledger.Append id={c} status=OK latency_ms={ms - start:.1f}')
    if c % 4 == 3:
        ms += random.uniform(0.1, 0.3)
        line('info', f'item cache miss sku={sku}, merging price data')
        sku += 4
        ms += random.uniform(2.0, 4.0)
    else:
        ms += random.uniform(0.1, 0.6)
line('info', 'request complete calls=15')
print('\n'.join(out))
