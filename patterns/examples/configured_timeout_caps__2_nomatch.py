#!/usr/bin/env python3
"""Near miss: an export job started through a reporting API is polled by its client every 500 ms
(sleep(0.5) between polls; each poll is an HTTP GET of 0.2-3 ms). The gap between "polling again in
500ms" and the next poll's answer is the 500 ms sleep plus that round trip, a constant like a
timeout, but every poll succeeds (status=200, progress grows by 6 %) and no error follows. The job
finishes after 16 polls."""
import random
from datetime import datetime, timedelta, timezone

random.seed(2202)
t = datetime(2026, 11, 29, 16, 10, 0, tzinfo=timezone.utc)
rid = '%016x' % random.getrandbits(64)
out = []


def line(lvl, msg):
    out.append(f'{t.strftime("%Y-%m-%dT%H:%M:%S.%f")}Z level={lvl} reqId={rid} msg="{msg}"')


def adv(lo_us, hi_us):
    global t
    t += timedelta(microseconds=random.randint(lo_us, hi_us))


line('info', 'export job=7731 started rows=250000')
adv(300, 2500)
for poll in range(1, 17):
    line('debug', f'export job=7731 status=RUNNING progress={(poll - 1) * 6}%, polling again in 500ms')
    adv(500060, 500200)                   # sleep(0.5), late by the timer slack
    adv(200, 3000)                        # GET /exports/7731
    line('debug', f'export job=7731 poll {poll} status=200')
    adv(100, 3000)
line('info', 'export job=7731 finished file=export-7731.csv.gz')
print('\n'.join(out))
