EXPECT = "match"
DESCRIPTION = "journalctl -o short-iso-precise of a chatty inventory-sync service with LogRateLimitIntervalSec=30s and LogRateLimitBurst=12: each window keeps 12 lines written in ~0.1 s, then nothing until the window ends and journald writes \"Suppressed N messages\""
import random
from datetime import datetime, timedelta, timezone

rnd = random.Random(40)
T0 = datetime(2026, 11, 29, 17, 0, 3, 218000, tzinfo=timezone.utc)
host = 'shop1'
ev = []

def add(t, prog, msg):
    ev.append((t, f'{t.strftime("%Y-%m-%dT%H:%M:%S.%f")}+00:00 {host} {prog}: {msg}'))

add(T0 - timedelta(seconds=2.2), 'systemd[1]', 'Started shop-sync.service - Inventory sync worker.')
add(T0 - timedelta(seconds=1.9), 'shop-sync[3120]', 'level=info msg="starting" version=4.2.1 feeds=3 log_level=debug')
t = T0
sku = 410200
window = 30.0
for w in range(6):
    start = t
    if w > 0:
        add(start, 'systemd-journald[312]', f'Suppressed {rnd.randint(2400, 3900)} messages from shop-sync.service')
    # the service writes ~110 lines a second; journald keeps the first 12 of each window
    for i in range(12):
        sku += rnd.randint(1, 7)
        add(t, 'shop-sync[3120]', f'level=debug msg="item synced" feed=supplier-{rnd.randint(1, 3)} sku={sku} qty={rnd.randint(0, 400)}')
        t += timedelta(milliseconds=rnd.expovariate(1 / 9.0) + 0.3)
    # the next window opens with the first message written after 30 s
    t = start + timedelta(seconds=window, milliseconds=rnd.uniform(0.2, 12))
ev.sort()
print('\n'.join(x for _, x in ev))
