#!/usr/bin/env python3
"""Near miss: a metrics flusher on its own 250 ms ticker (timerfd, so each wake-up is 0.1-0.4 ms late
and never drifts) drains the points buffered since the last flush in 2-4 batches (0.5-2 ms each:
serialise and write to the TSDB socket) and goes back to sleep. Its stalls keep a clock, but the
clock is its own 250 ms timer, not the 100 ms CFS period, and it is idle, not throttled, in
between. 50 flushes."""
import random
from datetime import datetime, timedelta, timezone

random.seed(1606)
t0 = datetime(2026, 11, 29, 16, 1, 0, 11000, tzinfo=timezone.utc)
out = []

for n in range(50):
    t = t0 + timedelta(milliseconds=250 * n, microseconds=random.randint(100, 400))
    rid = '%016x' % random.getrandbits(64)

    def line(msg):
        out.append(f'{t.strftime("%Y-%m-%dT%H:%M:%S.%f")}Z level=debug reqId={rid} msg="{msg}"')

    line('flush timer fired queue=metrics')
    for b in range(random.randint(2, 4)):
        t += timedelta(microseconds=random.randint(500, 2000))
        line(f'flush batch={b} points={random.randint(50, 400)}')
    t += timedelta(microseconds=random.randint(500, 2000))
    line('flush done')

print('\n'.join(out))
