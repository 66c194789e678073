#!/usr/bin/env python3
"""One log holding a MediaWiki job's Redis calls (RedisBagOStuff, logged as each reply arrives) and
the Redis server's persistence messages (pid=2187). The Redis instance holds about 0.8 GB on an old
Xen PV guest, where fork() copies page tables at roughly 330 ms per GB (Redis' latency
documentation: 239-424 ms/GB on Xen), so each fork blocks the server for 260-290 ms. A `save 5
1000` rule starts a BGSAVE 5 s after the previous save ended (checked by serverCron every 100 ms),
and the child writes the RDB in 1.2-1.6 s, so a save starts every 6.2-6.8 s. The parent logs
"Background saving started by pid N" right after fork() returns, then serves the commands that
queued meanwhile (0.5-6 ms). The client issues a GET 60-160 ms after each reply (0.2-0.8 ms per
call otherwise): the call that falls into a fork ends just after the line, so each of the five
lines sits in a 290-370 ms silence of the client, and no such silence happens at other times."""
import random
from datetime import datetime, timedelta, timezone

random.seed(2701)
T0 = datetime(2026, 11, 30, 1, 0, 0, tzinfo=timezone.utc)
ev = []


def add(ms, text):
    ev.append((ms, f'{(T0 + timedelta(milliseconds=ms)).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3]}Z {text}'))


forks = []
start, child = 5800.0, 3001
for n in range(5):
    dur = random.uniform(260, 290)                 # page-table copy
    forks.append((start, start + dur))
    add(start + dur, f'pid=2187 Background saving started by pid {child}')
    write = random.uniform(1200, 1600)             # the child writes the RDB
    add(start + dur + write, f'pid={child} DB saved on disk')
    add(start + dur + write + random.uniform(20, 110), 'pid=2187 Background saving terminated with success')
    start = start + dur + write + 5000 + random.uniform(0, 100)
    child += random.randint(60, 500)

ms = 0.0
while ms < 35000:
    blocked = next((f for f in forks if f[0] <= ms < f[1]), None)
    if blocked:
        done = blocked[1] + random.uniform(0.5, 6.0)   # served after the fork returns
    else:
        done = ms + random.uniform(0.2, 0.8)
    add(done, f'reqId=5c0e1f8a3b7d2e41 RedisBagOStuff::get key:{random.randint(100000, 999999)}')
    ms = done + random.uniform(60, 160)

ev.sort(key=lambda e: e[0])
print('\n'.join(text for _, text in ev))
