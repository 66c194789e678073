#!/usr/bin/env python3
"""Near miss: a scan uploader (logfmt, curl debug lines) PUTs 1.9 MB files to an object store with
"Expect: 100-continue". The store's proxy never sends 100 Continue, so curl waits its expect-100
timeout (CURLOPT_EXPECT_100_TIMEOUT_MS, 1000 ms; its multi loop wakes 0.05-0.6 ms late) before it
sends the body; the body and the 200 answer follow in 1-4 ms on the LAN. Whole-second stalls, but
after an Expect header and on a reused connection, with no connect line: not a dropped SYN. 11
uploads."""
import random
from datetime import datetime, timedelta, timezone

random.seed(802)
t = datetime(2026, 11, 29, 14, 10, 0, tzinfo=timezone.utc)
out = []
rid = ''


def line(lvl, msg):
    out.append(f'{t.strftime("%Y-%m-%dT%H:%M:%S.%f")}Z level={lvl} reqId={rid} msg="{msg}"')


def adv(lo_us, hi_us):
    global t
    t += timedelta(microseconds=random.randint(lo_us, hi_us))


for n in range(11):
    rid = '%016x' % random.getrandbits(64)
    line('info', f'upload start file=scan-{4400 + n}.pdf bytes={1900000 + 7919 * n}')
    adv(150, 2500)
    line('debug', 'curl: > PUT /bucket/scans HTTP/1.1 (Expect: 100-continue)')
    adv(1000050, 1000600)                 # expect-100 timeout
    line('debug', 'curl: Done waiting for 100-continue')
    adv(1000, 4000)                       # body (a few ms at 10 Gbit/s) and the answer
    line('debug', 'curl: < HTTP/1.1 200 OK')
    adv(100, 900)
    line('info', 'upload done status=200')
    adv(500000, 1800000)
print('\n'.join(out))
