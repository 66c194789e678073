#!/usr/bin/env python3
"""Not a sleep loop: two CSV-export handlers (logfmt, request ids) in a container whose CPU limit was written as
cpu.max "12000 50000": 12 ms of CPU per 50 ms CFS period, a period set by hand. Both handler
threads render rows flat out (1.6-2.2 ms of CPU per 500-row chunk, a line per chunk); between them
they burn the 12 ms quota in about 6 ms of wall time, three chunks each, and then the kernel
throttles the cgroup: both threads are silent until the period timer refills the quota at the
next 50 ms boundary, where they wake 50-400 us apart. A request is 18 chunks, so each spans six
periods. 26 periods are logged. 50 ms is also a common poll interval, but a sleeping loop stops
only itself: here every running request stops at once."""
import random
from datetime import datetime, timezone

random.seed(7)
T0 = 1764500000.000  # 2025-11-30T10:53:20Z
PERIOD = 0.050
CHUNKS = 18


def stamp(t):
    d = datetime.fromtimestamp(t, timezone.utc)
    return d.strftime('%Y-%m-%dT%H:%M:%S.') + f'{d.microsecond:06d}Z'


lines = []
request = {0: None, 1: None}
chunk = {0: 0, 1: 0}
ids = iter('%016x' % random.getrandbits(64) for _ in range(100))
for k in range(26):
    start = T0 + k * PERIOD
    for thread in (0, 1):
        # Woken by the unthrottle at the boundary, the second thread a little after the first.
        t = start + random.uniform(0.00005, 0.0004) + thread * 0.0002
        for _ in range(3):  # its share of the quota: three chunks
            if request[thread] is None:
                request[thread] = next(ids)
                chunk[thread] = 0
                lines.append((t, f'level=info handler=export req_id={request[thread]} msg="GET /export.csv start"'))
                t += random.uniform(0.0001, 0.0003)
            t += random.uniform(0.0016, 0.0022)
            chunk[thread] += 1
            lines.append((t, f'level=debug handler=export req_id={request[thread]} msg="rendered rows" '
                             f'chunk={chunk[thread]} rows=500'))
            if chunk[thread] == CHUNKS:
                t += 0.0002
                lines.append((t, f'level=info handler=export req_id={request[thread]} msg="GET /export.csv done" '
                                 'status=200'))
                request[thread] = None
lines.sort()
for t, text in lines:
    print(f'{stamp(t)} {text}')
