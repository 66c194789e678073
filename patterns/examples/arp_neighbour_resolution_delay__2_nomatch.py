#!/usr/bin/env python3
"""Near miss: the same Go service while the primary's accept queue overflows. SYNs are dropped by
the listener (the neighbour is resolved), so dials complete after the SYN retransmission timer:
1.004-1.032 s, a few after two retransmissions (linear SYN timeouts, ~2.05 s). No dial fails."""
import json
import random

random.seed(901)
t = 1795978800.0  # 2026-11-29T19:00:00Z
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
    if i in (3, 8):
        line('debug', 'db/pool.go:97', 'using pooled connection', rid, addr='10.20.0.14:5432', role='primary')
    else:
        line('debug', 'db/pool.go:142', 'dialing database', rid, addr='10.20.0.14:5432', role='primary')
        d = 1.004 + random.randint(0, 7) * 0.004
        if i in (5, 10):
            d += 1.024
        t += d + random.randint(100, 900) / 1e6
        line('warn', 'db/pool.go:158', 'connected (slow)', rid, addr='10.20.0.14:5432', connect_ms=round(d * 1000 + 0.4, 1))
    step(800, 4200)
    line('debug', 'orders/repo.go:33', 'query done', rid, rows=random.randint(1, 40))
    step(90, 400)
    line('info', 'api/handler.go:88', 'request finished', rid, status=200)
    t += random.randint(200, 2500) / 1e3

print('\n'.join(out))
