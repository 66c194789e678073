#!/usr/bin/env python3
"""A CPU-bound report service (logfmt) in a container with cpu.max "20000 100000": 20 ms of CPU per
100 ms CFS period. Its interpreter runs one thread at a time (a global lock handed over every 5 ms,
the switch interval), so two report requests in flight take turns on one core and burn the 20 ms
quota in about 20 ms of wall time. Each report renders ceil(rows / 500) chunks of 1.3-2.6 ms CPU
each and logs a line as each chunk starts. When the quota is used up the kernel notices it at the
next scheduler tick (CONFIG_HZ=250, 4 ms, at a fixed phase against the period) and throttles the
cgroup: every thread is silent until the period timer refills the quota 100 ms after the last
refill (the unthrottle runs 20-60 us after it); the thread that waited for the lock has timed out
meanwhile and takes it first. The overrun to the tick is owed to the next period, so the cgroup
runs 17.3 or 21.3 ms per period and sleeps the other ~80 ms. Two clients keep one request each in
flight and send the next one 3-40 ms after a response; one that arrives while the cgroup is
throttled is read when the next period starts. 30 periods are logged."""
import math
import random
from datetime import datetime, timedelta, timezone

random.seed(1605)
T0 = datetime(2026, 11, 29, 16, 0, 0, tzinfo=timezone.utc)
PERIOD, QUOTA, TICK, SWITCH = 100.0, 20.0, 4.0, 5.0
FIRST = 37.1                    # the first period boundary, ms into the log
TICK_PHASE = 1.3                # scheduler ticks at FIRST + TICK_PHASE + 4k ms
out = []


def log(ms, rid, msg):
    out.append(f'{(T0 + timedelta(milliseconds=ms)).strftime("%Y-%m-%dT%H:%M:%S.%f")}Z level=debug reqId={rid} msg="{msg}"')


def new_request():
    rid = '%016x' % random.getrandbits(64)
    rows = random.randint(6000, 18000)
    chunks = math.ceil(rows / 500)
    items = [(random.uniform(0.25, 0.6), f'POST /api/report handler=Report rows={rows}')]
    for c in range(1, chunks + 1):
        items.append((random.uniform(1.3, 2.6), f'render chunk={c} rows=500 cpu_bound=true'))
    items.append((random.uniform(0.1, 0.3), f'POST /api/report done status=200 chunks={chunks}'))
    return {'rid': rid, 'items': items, 'i': 0, 'left': None}


def next_tick(x):
    k = math.ceil((x - FIRST - TICK_PHASE) / TICK)
    return FIRST + TICK_PHASE + k * TICK


# both clients' first requests arrive just before the first period boundary; the cgroup was
# throttled until then by the requests before them
arrivals = [FIRST - 0.4, FIRST - 0.2]
runnable = []
period_start = FIRST
now = FIRST + random.uniform(0.02, 0.06)
avail, used = QUOTA, 0.0
last = FIRST + 30 * PERIOD
current = None
held = 0.0                      # how long the current thread has held the interpreter lock
while now < last:
    # requests that have arrived become runnable
    for a in sorted(arrivals):
        if a <= now:
            arrivals.remove(a)
            runnable.append(new_request())
    boundary = period_start + PERIOD
    if not runnable:
        # idle: nothing to run until the next request arrives (or the quota refills)
        nxt = min(arrivals)
        while boundary <= nxt:
            period_start, boundary = boundary, boundary + PERIOD
            used, avail = 0.0, QUOTA - max(0.0, used - avail)
        now = nxt
        continue
    if current not in runnable:
        current = random.choice(runnable)
        held = 0.0
    elif held >= SWITCH and len(runnable) > 1:
        current = next(r for r in runnable if r is not current)
        held = 0.0
    req = current
    cpu, text = req['items'][req['i']]
    if req['left'] is None:
        log(now, req['rid'], text)
        req['left'] = cpu
    # run until the item ends, the throttle is noticed, or the period ends
    exhaust = now + max(0.0, avail - used)
    detect = next_tick(exhaust) if used < avail else now
    until = min(now + req['left'], detect, boundary, now + max(0.0, SWITCH - held) if len(runnable) > 1 else 1e18)
    req['left'] -= until - now
    used += until - now
    held += until - now
    now = until
    if req['left'] <= 1e-9:
        req['left'] = None
        req['i'] += 1
        if req['i'] == len(req['items']):
            runnable.remove(req)
            arrivals.append(now + random.uniform(3.0, 40.0))   # the client's next request
        if req not in runnable:
            current = None
    if now >= boundary - 1e-9:
        # period timer: quota refilled (minus what the last period overran)
        debt = max(0.0, used - avail)
        period_start = boundary
        used, avail = 0.0, QUOTA - debt
    elif now >= detect - 1e-9 and used >= avail:
        # throttled: silent until the period timer refills the quota
        debt = used - avail
        period_start = boundary
        used, avail = 0.0, QUOTA - debt
        now = boundary + random.uniform(0.02, 0.06)
        held = SWITCH           # the waiting thread's timed wait for the lock has expired

print('\n'.join(out))
