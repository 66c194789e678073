#!/usr/bin/env python3
"""Near miss: a quote service (logfmt) resolves its partner's API host with getaddrinfo (glibc, one
nameserver, default options timeout:5 attempts:2) on every request. The path to the resolver loses
UDP replies, and in these 11 requests the first answer was lost: glibc's poll() waits its 5 s
per-try timeout, resends, and the second answer arrives 0.2-2.5 ms later, so the lookup takes
5000.2-5002.5 ms and succeeds. The gap has the length of a timeout, but no error follows it: it is
a resolver retry, not a capped wait that failed."""
import random
from datetime import datetime, timedelta, timezone

random.seed(2203)
t = datetime(2026, 11, 29, 16, 20, 0, tzinfo=timezone.utc)
out = []
rid = ''


def line(lvl, msg):
    out.append(f'{t.strftime("%Y-%m-%dT%H:%M:%S.%f")}Z level={lvl} reqId={rid} msg="{msg}"')


def adv(lo_us, hi_us):
    global t
    t += timedelta(microseconds=random.randint(lo_us, hi_us))


for n in range(11):
    rid = '%016x' % random.getrandbits(64)
    line('info', 'GET /v1/quote handler=Quote')
    adv(100, 1500)
    line('debug', 'resolving api.partner.example via getaddrinfo family=AF_UNSPEC')
    start = t
    adv(5000200, 5002500)                 # first reply lost: 5 s poll timeout, resend, answer
    line('debug', f'getaddrinfo api.partner.example ok addrs=2 elapsed_ms={(t - start).total_seconds() * 1000:.1f}')
    adv(100, 800)
    line('debug', 'connect 203.0.113.40:443 host=api.partner.example')
    adv(300, 3200)                        # TLS session resumed, GET /quote, 200
    line('info', 'GET /v1/quote done status=200')
    adv(300000, 2000000)                  # next request
print('\n'.join(out))
