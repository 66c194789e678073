#!/usr/bin/env python3
"""Near miss: the same client and message layout, but a small Redis instance (about 40 MB resident) on
a KVM host, where fork() costs about 23 ms per GB: under 1 ms. The server saves twice (a BGSAVE
every 5-6 s under a `save 5 1000` rule, the child writing for 0.1-0.3 s), and the client's calls go
on at their usual pace of one every 60-160 ms: nothing stalls around the "Background saving
started" lines."""
import random
from datetime import datetime, timedelta, timezone

random.seed(2702)
T0 = datetime(2026, 11, 30, 2, 0, 0, tzinfo=timezone.utc)
ev = []


def add(ms, text):
    ev.append((ms, f'{(T0 + timedelta(milliseconds=ms)).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3]}Z {text}'))


forks = []
start, child = 1370.0, 3452
for n in range(2):
    dur = random.uniform(0.6, 1.0)
    forks.append((start, start + dur))
    add(start + dur, f'pid=2187 Background saving started by pid {child}')
    write = random.uniform(100, 300)
    add(start + dur + write, f'pid={child} DB saved on disk')
    add(start + dur + write + random.uniform(20, 110), 'pid=2187 Background saving terminated with success')
    start = start + dur + write + 5000 + random.uniform(0, 100)
    child += random.randint(60, 500)

ms = 0.0
while ms < 7400:
    blocked = next((f for f in forks if f[0] <= ms < f[1]), None)
    done = (blocked[1] + random.uniform(0.1, 0.5)) if blocked else ms + random.uniform(0.2, 0.8)
    add(done, f'reqId=9a41d0c27be35f18 RedisBagOStuff::get key:{random.randint(100000, 999999)}')
    ms = done + random.uniform(60, 160)

ev.sort(key=lambda e: e[0])
print('\n'.join(text for _, text in ev))
