#!/usr/bin/env python3
"""Near miss: the same checkout service and the same 204-208 ms one-off stalls, on hosts with tail
loss probes disabled (net.ipv4.tcp_early_retrans=0): a lost request or reply waits for the
retransmission timer (RTO = 51 ticks at CONFIG_HZ=250, fired one tick late), the service logs
tcp_info retransmits=1 on the slow calls, and its 10 s netstat sampler shows TCPTimeouts rising
and no loss probes."""
import random
from datetime import datetime, timedelta, timezone

random.seed(701)
t0 = datetime(2026, 11, 29, 13, 45, 0, tzinfo=timezone.utc)
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
            d = 204_000 + random.randint(150, 4300)  # RTO = 51 ticks, fired one tick late, + the reply
            probe_times.append(t)
        else:
            d = random.randint(220, 700)
        t += timedelta(microseconds=d)
        extra = ' tcp_info retransmits=1 rto_ms=204' if k == lost else ''
        line(t, 'warn' if extra else 'debug', rid, f'stock reserve ok sku={sku} elapsed_ms={d / 1000:.1f}{extra}')
        t += timedelta(microseconds=random.randint(150, 2500))
    line(t, 'info', rid, 'POST /api/cart/checkout done status=200')
    t += timedelta(milliseconds=random.randint(400, 2600))

# the 10 s netstat sampler
s = t0 + timedelta(seconds=10)
while s < t + timedelta(seconds=10):
    n = sum(1 for p in probe_times if s - timedelta(seconds=10) <= p < s)
    line(s, 'info', None, f'netstat delta interval=10s TcpRetransSegs={n} TcpExtTCPLossProbes=0 '
         f'TcpExtTCPLossProbeRecovery=0 TcpExtTCPTimeouts={n}')
    s += timedelta(seconds=10)

ev.sort(key=lambda e: e[0])
print('\n'.join(l for _, l in ev))
