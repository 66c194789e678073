#!/usr/bin/env python3
"""Near miss: the same service and the same dual-stack partner, but IPv6 works: curl connects
over IPv6 in well under a millisecond. The ~201 ms gaps are the partner's own 200 ms quote
collection window, between the request curl sent and the response status line."""
import random
from datetime import datetime, timedelta, timezone

random.seed(1301)
t = datetime(2026, 11, 29, 17, 0, 0, tzinfo=timezone.utc)
out = []


def ts(x):
    return x.strftime('%Y-%m-%dT%H:%M:%S.%f') + 'Z'


def line(x, lvl, rid, msg):
    out.append(f'{ts(x)} level={lvl} reqId={rid} msg="{msg}"')


def us(a, b):
    return timedelta(microseconds=random.randint(a, b))


pairs = ['EUR', 'GBP', 'CHF', 'JPY', 'SEK', 'NOK', 'PLN', 'CZK']
for i in range(10):
    rid = '%016x' % random.getrandbits(64)
    base = random.choice(pairs)
    line(t, 'info', rid, f'GET /v1/quotes base={base} handler=Quotes')
    t += us(120, 400)
    if i in (2, 6, 9):
        line(t, 'debug', rid, 'curl: * Re-using existing connection with host api.partner.example')
    else:
        line(t, 'debug', rid, 'curl: *   Trying [2001:db8:4::17]:443...')
        t += us(300, 900)
        line(t, 'debug', rid, 'curl: * Connected to api.partner.example (2001:db8:4::17) port 443')
        t += us(2500, 6500)
        line(t, 'debug', rid, 'curl: * SSL connection using TLSv1.3 / TLS_AES_256_GCM_SHA384 / X25519 / RSASSA-PSS')
    t += us(60, 200)
    line(t, 'debug', rid, f'curl: > GET /v1/fx/aggregate?base={base} HTTP/1.1')
    # the partner collects quotes for 200 ms before answering
    t += timedelta(microseconds=200_000 + random.randint(600, 2600))
    line(t, 'debug', rid, 'curl: < HTTP/1.1 200 OK')
    t += us(150, 700)
    line(t, 'info', rid, f'GET /v1/quotes base={base} done status=200')
    t += timedelta(milliseconds=random.randint(250, 2400))

print('\n'.join(out))
