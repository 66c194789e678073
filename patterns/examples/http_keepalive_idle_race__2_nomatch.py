#!/usr/bin/env python3
"""Near miss: the same Node.js forwarder after the ingest service's keepAliveTimeout was raised to
65 s: it still pushes every 5 s on the same reused socket, but no push fails; the 5.00 s gaps
are the forwarder's own sleep."""
import json
import random

random.seed(1501)
t = 1795975800.0  # 2026-11-29T17:30:00Z
out = []


def rec(level, msg, **kw):
    r = {"level": level, "time": int(round(t * 1000)), "pid": 5188, "hostname": "fwd-2"}
    r.update(kw)
    r["msg"] = msg
    out.append(json.dumps(r, separators=(',', ':')))


batch = 5120
rec(30, 'forwarder started', target='http://ingest.internal:3000/v1/events', intervalMs=5000, keepAlive=True)
t += 0.398
for i in range(32):
    batch += 1
    d = random.randint(500, 1600) / 1e6
    t += d
    rec(30, 'batch pushed', batch=batch, events=random.randint(40, 260), status=202, ms=round(d * 1000),
        attempt=1, reusedSocket=i > 0)
    t += 5.0 + random.randint(20, 400) / 1e6

print('\n'.join(out))
