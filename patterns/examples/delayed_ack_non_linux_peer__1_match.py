#!/usr/bin/env python3
"""A Linux order service (logfmt) quotes 15 items against an IIS 10 inventory service on Windows
Server 2019, one POST per item on one keep-alive connection, with Nagle on (tcp_no_delay=false) and
the request written as header, then body. The header leaves at once; the small body is held by
Nagle until the header is acknowledged. Windows acknowledges a segment at once only when it sent no
ACK for the one before, otherwise after its 200 ms delayed-ACK timer (TcpDelAckTicks = 2,
Microsoft's "Delayed Acknowledgments"). The first header on the fresh connection follows the bare
ACK of the handshake and is acknowledged at once: 1.9 ms. Every later header follows a body that
the previous response already acknowledged, so the body waits for the timer: 200.0-200.4 ms (the
timer, the LAN round trip and IIS's 0.1-0.3 ms)."""
import random
from datetime import datetime, timedelta, timezone

random.seed(401)
t = datetime(2026, 11, 29, 12, 0, 0, tzinfo=timezone.utc)
rid = '%016x' % random.getrandbits(64)
out = []


def line(lvl, msg):
    out.append(f'{t.strftime("%Y-%m-%dT%H:%M:%S.%f")}Z level={lvl} reqId={rid} msg="{msg}"')


peer = 'inv-win01.corp.example:8080'
line('debug', f'upstream connect peer={peer} server=Microsoft-IIS/10.0 os=Windows Server 2019 tcp_no_delay=false')
for i in range(15):
    t += timedelta(microseconds=random.randint(150, 1200) if i else random.randint(600, 1100))
    line('debug', f'POST /inventory/lookup upstream={peer} sku={5100 + i} sent header+body in 2 writes')
    start = t
    if i == 0:
        t += timedelta(microseconds=random.randint(1500, 2400))      # header ACKed at once
    else:
        t += timedelta(microseconds=200000 + random.randint(60, 420))  # 200 ms delayed ACK
    line('debug', f'upstream response status=200 server=Microsoft-IIS/10.0 latency_ms={(t - start).total_seconds() * 1000:.1f}')
    if random.random() < 0.15:
        t += timedelta(microseconds=random.randint(1500, 3500))      # price rule lookup
t += timedelta(microseconds=random.randint(400, 3000))
line('info', 'order quote complete items=15')
print('\n'.join(out))
