#!/usr/bin/env python3
"""Node.js event forwarder (pino JSON lines): it pushes a batch to the ingest service over an
http.Agent with keepAlive, then sleeps 5 s after each response. The ingest service is a Node
server with the default keepAliveTimeout of 5000 ms, armed when it finished the response, so its
FIN and the forwarder's next request cross: about half of the pushes go out on a socket the server
has just closed and fail at once with 'socket hang up' (ECONNRESET, reusedSocket true), and are
retried on a new connection. Lines are 5.001-5.004 s apart."""
import json
import random

random.seed(1500)
t = 1795974000.0  # 2026-11-29T17:00:00Z, milliseconds below
out = []
STACK = ('Error: socket hang up\n    at Socket.socketOnEnd (node:_http_client:524:23)\n'
         '    at Socket.emit (node:events:531:35)\n    at endReadableNT (node:internal/streams/readable:1698:12)')


def rec(level, msg, **kw):
    r = {"level": level, "time": int(round(t * 1000)), "pid": 5123, "hostname": "fwd-2"}
    r.update(kw)
    r["msg"] = msg
    out.append(json.dumps(r, separators=(',', ':')))


batch = 4410
rec(30, 'forwarder started', target='http://ingest.internal:3000/v1/events', intervalMs=5000, keepAlive=True)
t += 0.412
for i in range(28):
    batch += 1
    n = random.randint(40, 260)
    # the race: the request goes out as the server's FIN arrives
    if random.random() < 0.5 and i > 0:
        t += random.randint(600, 1700) / 1e6
        rec(50, 'push failed, retrying on a new connection', batch=batch, reusedSocket=True,
            err={"type": "Error", "message": "socket hang up", "stack": STACK, "code": "ECONNRESET"})
        d = random.randint(1200, 2600) / 1e6          # connect + request on a new socket
        t += d
        rec(30, 'batch pushed', batch=batch, events=n, status=202, ms=round(d * 1000), attempt=2, reusedSocket=False)
    else:
        d = random.randint(500, 1600) / 1e6
        t += d
        rec(30, 'batch pushed', batch=batch, events=n, status=202, ms=round(d * 1000), attempt=1, reusedSocket=i > 0)
    t += 5.0 + random.randint(20, 400) / 1e6   # setTimeout(5000) after the response

print('\n'.join(out))
