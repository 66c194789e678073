#!/usr/bin/env python3
"""Service (key=value lines) calling a stock service over pooled keep-alive connections on a
lossy LAN link. A call's request or reply is one small segment; when it is lost, the sender's
tail loss probe fires after PTO = 2*srtt + 200 ms (one packet in flight), rounded up to the next
4 ms tick at CONFIG_HZ=250 (2*srtt rounds up to one jiffy: 51 ticks, fired within the 52nd): the
call takes 204-208 ms instead of 0.3 ms. The service's own
10-second netstat sampler logs TcpExtTCPLossProbes and TCPLossProbeRecovery rising with them,
TCPTimeouts staying at 0 (no retransmission timer fired)."""
import random
from datetime import datetime, timedelta, timezone

random.seed(700)
t0 = datetime(2026, 11, 29, 13, 30, 0, tzinfo=timezone.utc)
ev = []


def line(x, lvl, rid, msg):
    rid_part = f' reqId={rid}' if rid else ''
    ev.append((x, f'{x.strftime("%Y-%m-%dT%H:%M:%S.%f")}Z level={lvl}{rid_part} msg="{msg}"'))


probe_times = []
t = t0
for i in range(12):
    rid = '%016x' % random.getrandbits(64)
    line(t, 'info', rid, 'POST /api/cart/checkout handler=Checkout')
    t += timedelta(microseconds=random.randint(300, 900))
    lost = None if i in (5, 9) else random.randrange(2)
    for k in range(2):
        sku = random.randint(10000, 99999)
        line(t, 'debug', rid, f'stock reserve sku={sku} peer=10.0.9.31:8080')
        if k == lost:
            d = 204_000 + random.randint(150, 4300)  # PTO = 51 ticks, fired one tick late, + the reply
            probe_times.append(t)
        else:
            d = random.randint(220, 700)
        t += timedelta(microseconds=d)
        line(t, 'debug', rid, f'stock reserve ok sku={sku} elapsed_ms={d / 1000:.1f}')
        t += timedelta(microseconds=random.randint(150, 2500))
    line(t, 'info', rid, 'POST /api/cart/checkout done status=200')
    t += timedelta(milliseconds=random.randint(400, 2600))

# the 10 s netstat sampler
s = t0 + timedelta(seconds=10)
while s < t + timedelta(seconds=10):
    n = sum(1 for p in probe_times if s - timedelta(seconds=10) <= p < s)
    line(s, 'info', None, f'netstat delta interval=10s TcpRetransSegs={n} TcpExtTCPLossProbes={n} '
         f'TcpExtTCPLossProbeRecovery={n} TcpExtTCPTimeouts=0')
    s += timedelta(seconds=10)

ev.sort(key=lambda e: e[0])
print('\n'.join(l for _, l in ev))
