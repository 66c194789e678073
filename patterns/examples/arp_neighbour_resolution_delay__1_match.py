#!/usr/bin/env python3
"""Go service (zap JSON lines) whose primary database VIP 10.20.0.14 is on the local segment but
owned by no host after a failed failover: each dial makes the kernel solicit the address three
times, 1 s apart (mcast_solicit = 3, retrans_time_ms = 1000), then fail the queued SYN with
EHOSTUNREACH. At CONFIG_HZ=250 the first neighbour timer fires 1.004-1.032 s after arming and the
next two 1.024 s each (level-1 wheel granules of 32 ms), so dials fail after 3.052-3.080 s.
The handler then falls back to the replica, which answers at once."""
import json
import random

random.seed(900)
t = 1795975200.0  # 2026-11-29T18:00:00Z
out = []


def line(lvl, caller, msg, rid, **kw):
    rec = {"level": lvl, "ts": round(t, 6), "caller": caller, "msg": msg, "request_id": rid}
    rec.update(kw)
    out.append(json.dumps(rec, separators=(',', ':')))


def step(a_us, b_us):
    global t
    t += random.randint(a_us, b_us) / 1e6


paths = ['/v1/orders/%d' % n for n in range(88100, 88190)]
for i in range(12):
    rid = '%032x' % random.getrandbits(128)
    path = random.choice(paths)
    line('info', 'api/handler.go:61', 'request started', rid, method='GET', path=path)
    step(180, 520)
    if i in (4, 9):
        line('debug', 'db/pool.go:97', 'using pooled connection', rid, addr='10.20.0.15:5432', role='replica')
    else:
        line('debug', 'db/pool.go:142', 'dialing database', rid, addr='10.20.0.14:5432', role='primary')
        first = 0.004 + random.randint(0, 7) * 0.004        # 1.004-1.032 s
        t += 1.0 + first + 1.024 + 1.024 + random.randint(30, 400) / 1e6
        line('error', 'db/pool.go:150', 'dial failed', rid, addr='10.20.0.14:5432',
             error='dial tcp 10.20.0.14:5432: connect: no route to host')
        step(60, 200)
        line('warn', 'db/pool.go:171', 'primary unreachable, falling back to replica', rid, addr='10.20.0.15:5432')
        step(350, 1200)
    step(800, 4200)
    line('debug', 'orders/repo.go:33', 'query done', rid, rows=random.randint(1, 40))
    step(90, 400)
    line('info', 'api/handler.go:88', 'request finished', rid, status=200)
    t += random.randint(200, 2500) / 1e3

print('\n'.join(out))
