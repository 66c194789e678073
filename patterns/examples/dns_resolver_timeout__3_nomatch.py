#!/usr/bin/env python3
"""Near miss: the same quote service on a healthy network: every getaddrinfo is answered on the first
try, in 0.15-3 ms (a round trip to the nameserver, or its cache). The resolver words are there, but
no lookup waits for a timeout. 10 requests, 0.5-2 s apart."""
import random
from datetime import datetime, timedelta, timezone

random.seed(1003)
t = datetime(2026, 11, 29, 15, 10, 0, tzinfo=timezone.utc)
out = []
rid = ''


def line(lvl, msg):
    out.append(f'{t.strftime("%Y-%m-%dT%H:%M:%S.%f")}Z level={lvl} reqId={rid} msg="{msg}"')


def adv(lo_us, hi_us):
    global t
    t += timedelta(microseconds=random.randint(lo_us, hi_us))


for n in range(10):
    rid = '%016x' % random.getrandbits(64)
    line('info', 'GET /v1/quote handler=Quote')
    adv(100, 1500)
    line('debug', 'resolving api.partner.example via getaddrinfo family=AF_UNSPEC')
    start = t
    adv(150, 3000)
    line('debug', f'getaddrinfo api.partner.example ok addrs=2 elapsed_ms={(t - start).total_seconds() * 1000:.1f}')
    adv(100, 800)
    line('debug', 'connect 203.0.113.40:443 host=api.partner.example')
    adv(300, 3200)
    line('info', 'GET /v1/quote done status=200')
    adv(500000, 2000000)
print('\n'.join(out))
