#!/usr/bin/env python3
"""Near miss: a page renderer (logfmt, millisecond timestamps) that, after every three fragments (1-3
ms of template work each), sends a small GET /v1/profile to win-app-07 in two writes with Nagle on.
The Windows peer is tuned to TcpDelAckTicks=1, so it holds its ACK for one 100 ms tick and the
second write, and with it the reply, leaves only then: 100-102 ms per call, four calls per request.
The gaps are one per-operation value inside each request, with short render gaps around them and
half a second between requests: no lattice of multiples, no sleep loop."""
import random
from datetime import datetime, timedelta, timezone

random.seed(1902)
t = datetime(2026, 11, 30, 4, 0, 0, 21000, tzinfo=timezone.utc)
out = []


def line(rid, rest):
    out.append(f'{t.strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3]}Z reqId={rid} {rest}')


for r in range(8):
    rid = '%016x' % random.getrandbits(64)
    for i in range(16):
        if i % 4 == 3:
            # header + body, the body held by Nagle until win-app-07's 100 ms delayed ACK
            t += timedelta(microseconds=random.randint(100300, 101900))
            line(rid, 'msg="GET /v1/profile reply read" peer=win-app-07')
        else:
            if i > 0:
                t += timedelta(microseconds=random.randint(600, 3400))   # template work
            line(rid, f'msg="render fragment {i}"')
    t += timedelta(milliseconds=random.randint(420, 560))               # next request arrives

print('\n'.join(out))
