#!/usr/bin/env python3
"""Near miss: a recommendations endpoint (logfmt) gives its backend an application deadline of 150 ms
per attempt (a timer in the client library, accurate to 0.1-0.4 ms) and retries once. The backend
is overloaded and misses the first deadline on every one of these 11 requests; the retry is
answered in 0.4-3.2 ms. The gaps are 150 ms, followed by "timed out ... retransmitting": timeout
words, but 150 ms is no RTO rung, and no TCP segment was lost."""
import random
from datetime import datetime, timedelta, timezone

random.seed(603)
t = datetime(2026, 11, 29, 13, 10, 0, tzinfo=timezone.utc)
out = []
rid = ''


def line(lvl, msg):
    out.append(f'{t.strftime("%Y-%m-%dT%H:%M:%S.%f")}Z level={lvl} reqId={rid} msg="{msg}"')


def adv(lo_us, hi_us):
    global t
    t += timedelta(microseconds=random.randint(lo_us, hi_us))


for n in range(11):
    rid = '%016x' % random.getrandbits(64)
    line('info', 'GET /api/v2/recommendations handler=Recs')
    adv(200, 1700)
    line('debug', 'calling recs-backend attempt=1 deadline_ms=150')
    adv(150100, 150400)                   # the deadline timer fires
    line('warn', 'recs-backend request timed out after 150 ms, retransmitting request (attempt 2)')
    adv(400, 3200)
    line('debug', 'recs-backend response status=200 attempt=2')
    adv(100, 1500)
    line('info', 'GET /api/v2/recommendations done status=200')
    adv(250000, 1000000)
print('\n'.join(out))
