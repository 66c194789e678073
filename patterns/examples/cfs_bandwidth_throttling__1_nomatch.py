#!/usr/bin/env python3
"""Near miss: a search request calls pricing-svc in 13 batches of 20 items; pricing-svc needs
80.5-81.5 ms per batch (its own database work), and the handler takes 1-14 ms between batches to
merge the prices. Meanwhile an import request in the same process keeps writing its rows, one every
25-60 ms (a row insert each), straight through those waits. Each batch is an 81 ms gap of one
request only, with the other request logging inside it: nothing silences the whole process, so no
cgroup throttling."""
import random
from datetime import datetime, timedelta, timezone

random.seed(1603)
t0 = datetime(2026, 11, 29, 17, 10, 0, tzinfo=timezone.utc)
ev = []


def add(ms, lvl, rid, msg):
    ev.append((ms, f'{(t0 + timedelta(milliseconds=ms)).strftime("%Y-%m-%dT%H:%M:%S.%f")}Z level={lvl} reqId={rid} msg="{msg}"'))


search = '%016x' % random.getrandbits(64)
imp = '%016x' % random.getrandbits(64)
add(0.0, 'info', search, 'GET /search q=thermal+camera start')
ms = random.uniform(3.0, 7.0)
for batch in range(1, 14):
    add(ms, 'debug', search, f'calling pricing-svc batch={batch} items=20')
    ms += random.uniform(80.5, 81.5)
    add(ms, 'debug', search, f'pricing-svc replied batch={batch} status=200')
    ms += random.uniform(1.0, 14.0)           # merge this batch's prices into the results
add(ms - random.uniform(0.3, 0.9), 'info', search, 'GET /search done status=200')
end = ms

row, sku, r = 1, 40000, random.uniform(0.5, 2.0)
while r < end - 5:
    add(r, 'debug', imp, f'import row={row} sku={sku} ok')
    row += 1
    sku += 7
    r += random.uniform(25.0, 60.0)

ev.sort(key=lambda e: e[0])
print('\n'.join(text for _, text in ev))
