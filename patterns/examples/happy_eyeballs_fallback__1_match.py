#!/usr/bin/env python3
"""Go-style key=value service that logs libcurl's debug output per request. The partner API is
dual-stack, but IPv6 towards it is black-holed (SYNs unanswered, no ICMP error), so every new
connection first tries the IPv6 address and starts the IPv4 attempt only after curl's Happy
Eyeballs timeout, CURL_HET_DEFAULT = 200 ms. Requests that reuse a pooled connection do not
connect and do not wait."""
import random
from datetime import datetime, timedelta, timezone

random.seed(1300)
t = datetime(2026, 11, 29, 16, 0, 0, tzinfo=timezone.utc)
out = []


def ts(x):
    return x.strftime('%Y-%m-%dT%H:%M:%S.%f') + 'Z'


def line(x, lvl, rid, msg):
    out.append(f'{ts(x)} level={lvl} reqId={rid} msg="{msg}"')


def us(a, b):
    return timedelta(microseconds=random.randint(a, b))


pairs = ['EUR', 'GBP', 'CHF', 'JPY', 'SEK', 'NOK', 'PLN', 'CZK']
reused = {3, 7}
for i in range(10):
    rid = '%016x' % random.getrandbits(64)
    base = random.choice(pairs)
    line(t, 'info', rid, f'GET /v1/quotes base={base} handler=Quotes')
    t += us(120, 400)
    if i in reused:
        line(t, 'debug', rid, 'curl: * Re-using existing connection with host api.partner.example')
    else:
        line(t, 'debug', rid, 'curl: *   Trying [2001:db8:4::17]:443...')
        # IPv6 SYN black-holed: the IPv4 attempt starts when the happy-eyeballs timer fires
        t += timedelta(microseconds=200_000 + random.randint(40, 900))
        line(t, 'debug', rid, 'curl: *   Trying 192.0.2.17:443...')
        t += us(350, 1400)
        line(t, 'debug', rid, 'curl: * Connected to api.partner.example (192.0.2.17) port 443')
        t += us(2500, 6500)
        line(t, 'debug', rid, 'curl: * SSL connection using TLSv1.3 / TLS_AES_256_GCM_SHA384 / X25519 / RSASSA-PSS')
    t += us(60, 200)
    line(t, 'debug', rid, f'curl: > GET /v1/fx/latest?base={base} HTTP/1.1')
    t += us(4000, 19000)
    line(t, 'debug', rid, 'curl: < HTTP/1.1 200 OK')
    t += us(150, 700)
    line(t, 'info', rid, f'GET /v1/quotes base={base} done status=200')
    t += timedelta(milliseconds=random.randint(250, 2400))

print('\n'.join(out))
