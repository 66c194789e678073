#!/usr/bin/env python3
"""Near miss: the order service calls the same IIS peer with TCP_NODELAY on, three lookups per
request, over a link that drops a segment now and then (about one call in five). A lost request or
reply is recovered by the retransmission timer: RTO = 204 ms (srtt + TCP_RTO_MIN) at CONFIG_HZ=250,
firing 0-4 ms late on the timer wheel, plus the round trip and IIS's time: 205-209 ms, and the
service logs tcp_info retransmits=1 for that call. The other calls take 0.3-2.1 ms. The stall is
sporadic, one-off and logged with its retransmission: not a delayed ACK on every operation."""
import random
from datetime import datetime, timedelta, timezone

random.seed(403)
t = datetime(2026, 11, 29, 12, 20, 0, tzinfo=timezone.utc)
out = []
rid = ''


def line(lvl, msg):
    out.append(f'{t.strftime("%Y-%m-%dT%H:%M:%S.%f")}Z level={lvl} reqId={rid} msg="{msg}"')


peer = 'inv-win01.corp.example:8080'
sku = 7300
for r in range(12):
    rid = '%016x' % random.getrandbits(64)
    for k in range(3):
        line('debug', f'POST /inventory/lookup upstream={peer} sku={sku} server=Microsoft-IIS/10.0 tcp_no_delay=true')
        sku += 1
        start = t
        if random.random() < 0.2:
            t += timedelta(microseconds=204000 + random.randint(600, 4800))   # RTO, wheel, RTT
            line('warn', f'upstream response status=200 latency_ms={(t - start).total_seconds() * 1000:.1f} '
                 'tcp_info retransmits=1 rto_ms=204')
        else:
            t += timedelta(microseconds=random.randint(250, 2100))
            line('debug', f'upstream response status=200 latency_ms={(t - start).total_seconds() * 1000:.1f}')
        t += timedelta(microseconds=random.randint(150, 2900))
    t += timedelta(milliseconds=random.randint(180, 900))     # next request
print('\n'.join(out))
