#!/usr/bin/env python3
"""Near miss: the same RPC client and the same two writes per call, with tcp_no_delay=true: the body
leaves right behind the header, the server answers in one LAN round trip plus its lookup (0.1-0.45
ms, now and then up to 3.5 ms for a cold item), and the client moves on after 0.1-0.6 ms (2-4 ms
after an item-cache miss). 16 calls of 0.1 to 3.5 ms: no delayed-ACK stall."""
import random
from datetime import datetime, timedelta, timezone

random.seed(103)
T0 = datetime(2026, 11, 29, 11, 20, 0, tzinfo=timezone.utc)
rid = '%016x' % random.getrandbits(64)
out = []
ms = 0.0


def line(lvl, msg):
    out.append(f'{(T0 + timedelta(milliseconds=ms)).strftime("%Y-%m-%dT%H:%M:%S.%f")}Z level={lvl} reqId={rid} msg="{msg}"')


line('debug', 'rpc connect peer=10.0.4.12:9090 tcp_no_delay=true')
ms += random.uniform(0.4, 0.9)
sku = 88102
for c in range(1, 17):
    line('debug', f'rpc call start method=Catalog.GetItem id={c} peer=10.0.4.12:9090 writes=2 header_bytes=58 '
         f'body_bytes={143 + 37 * c} tcp_no_delay=true')
    start = ms
    ms += random.uniform(0.1, 0.45) if random.random() < 0.8 else random.uniform(1.0, 3.5)
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
