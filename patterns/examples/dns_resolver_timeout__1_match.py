#!/usr/bin/env python3
"""A quote service (logfmt) resolves its partner's API host with getaddrinfo on every request: glibc
stub resolver, one nameserver, default options (timeout:5 attempts:2), A and AAAA sent in parallel.
The path to the nameserver drops UDP replies. When a reply is lost, glibc's poll() waits its 5 s
per-try timeout, sends again, and the answer arrives 0.2-2.5 ms later: the lookup takes
5000.2-5002.5 ms and the request goes on. When both tries are lost the lookup fails after 2 x 5 s
with EAI_AGAIN ("Temporary failure in name resolution") and the request answers 503. Lookups whose
first reply arrives take 0.2-3 ms. 20 requests: 10 with one lost reply, one with two, 9 without
loss."""
import random
from datetime import datetime, timedelta, timezone

random.seed(1001)
t = datetime(2026, 11, 29, 15, 0, 0, tzinfo=timezone.utc)
out = []
rid = ''


def line(lvl, msg):
    out.append(f'{t.strftime("%Y-%m-%dT%H:%M:%S.%f")}Z level={lvl} reqId={rid} msg="{msg}"')


def adv(lo_us, hi_us):
    global t
    t += timedelta(microseconds=random.randint(lo_us, hi_us))


losses = [1] * 10 + [2] + [0] * 9
random.shuffle(losses)
for lost in losses:
    rid = '%016x' % random.getrandbits(64)
    line('info', 'GET /v1/quote handler=Quote')
    adv(100, 1500)
    line('debug', 'resolving api.partner.example via getaddrinfo family=AF_UNSPEC')
    start = t
    if lost == 2:
        adv(10000300, 10002000)           # both tries time out: 2 x 5 s
        line('error', 'getaddrinfo api.partner.example failed: EAI_AGAIN Temporary failure in name resolution')
        adv(200, 900)
        line('info', 'GET /v1/quote done status=503')
    else:
        if lost:
            adv(5000200, 5002500)         # 5 s timeout, resend, answer
        else:
            adv(200, 3000)                # answered on the first try
        line('debug', f'getaddrinfo api.partner.example ok addrs=2 elapsed_ms={(t - start).total_seconds() * 1000:.1f}')
        adv(100, 800)
        line('debug', 'connect 203.0.113.40:443 host=api.partner.example')
        adv(300, 3200)
        line('info', 'GET /v1/quote done status=200')
    adv(300000, 1900000)                  # next request
print('\n'.join(out))
