#!/usr/bin/env python3
"""Job-runner dispatcher (logfmt, millisecond timestamps) that polls the refreshLinks queue in a
fixed-cadence loop: claim one job (a short query, 0.6-1.1 ms), hand it to the worker pool, then
time.sleep(0.1) whether or not it found work. It logs "polling job queue" only for polls that
claimed a job, with the depth left behind, so the gap between two lines is a whole number of loop
turns: each turn is the 100 ms sleep, the timer slack and wake-up (50-150 us) and the poll query,
about 100.7-101.3 ms, giving gaps of 101, 202, 303, 404 ms ... Jobs arrive at random (Poisson,
about 0.55 per loop turn), and the pool runs them, so job run time never enters the loop."""
import math
import random
from datetime import datetime, timedelta, timezone

random.seed(1901)
t0 = datetime(2026, 11, 30, 3, 0, 0, 202000, tzinfo=timezone.utc)
out = []


def poisson(lam):
    # Knuth's method: number of jobs enqueued during one loop turn
    k, p, limit = 0, 1.0, math.exp(-lam)
    while True:
        p *= random.random()
        if p <= limit:
            return k
        k += 1


ms = 0.0
depth = 5
while len(out) < 140:
    query = random.uniform(0.6, 1.1)          # SELECT ... FOR UPDATE SKIP LOCKED, one job
    claimed = depth > 0
    if claimed:
        depth -= 1
        ts = (t0 + timedelta(milliseconds=ms + query)).strftime('%Y-%m-%dT%H:%M:%S.%f')[:-3]
        out.append(f'{ts}Z level=info worker=indexer msg="polling job queue" queue=refreshLinks depth={depth}')
    # sleep(0.1): hrtimer, late by the timer slack and the wake-up
    ms += query + 100.0 + random.uniform(0.05, 0.15)
    depth += poisson(0.55)

print('\n'.join(out))
