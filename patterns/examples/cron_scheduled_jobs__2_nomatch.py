EXPECT = "no-match"
DESCRIPTION = "the same host, the same every-minute cron job, but the 1.3-1.8 s stalls are slow search queries at random moments of the minute, not at hh:mm:00"
import random
from datetime import datetime, timedelta, timezone

rnd = random.Random(27)
T0 = datetime(2026, 11, 29, 15, 0, 0, tzinfo=timezone.utc)
host = 'shop1'
ev = []

def add(t, prog, msg):
    ev.append((t, f'{t.strftime("%Y-%m-%dT%H:%M:%S.%f")}+00:00 {host} {prog}: {msg}'))

def request(start, stall_until=None):
    rid = '%016x' % rnd.getrandbits(64)
    pid = rnd.choice([2231, 2232, 2233, 2234])
    prog = f'shop-api[{pid}]'
    path = rnd.choice(['/api/products?page=2', '/api/cart', '/api/products/4471', '/api/search?q=lamp', '/api/categories'])
    t = start
    add(t, prog, f'reqId={rid} msg="GET {path}"')
    t += timedelta(milliseconds=rnd.uniform(0.4, 1.5))
    add(t, prog, f'reqId={rid} msg="session ok" user={rnd.randint(1000, 9999)}')
    t += timedelta(milliseconds=rnd.uniform(0.8, 3.0))
    add(t, prog, f'reqId={rid} msg="query products" rows={rnd.randint(1, 48)}')
    if stall_until is not None:
        t = stall_until
    else:
        t += timedelta(milliseconds=rnd.uniform(2.0, 7.0))
    add(t, prog, f'reqId={rid} msg="rendered" bytes={rnd.randint(2000, 40000)}')
    t += timedelta(milliseconds=rnd.uniform(0.3, 1.2))
    add(t, prog, f'reqId={rid} msg="GET {path} done" status=200 duration_ms={(t - start).total_seconds() * 1000:.1f}')

cron_pid = 48190
for m in range(6):
    minute = T0 + timedelta(minutes=m)
    cron_pid += rnd.randint(3, 40)
    add(minute + timedelta(milliseconds=rnd.uniform(40, 160)), f'CRON[{cron_pid}]', '(www-data) CMD (cd /srv/shop && php artisan schedule:run >> /dev/null 2>&1)')
    # a search request whose query is slow, at any moment of the minute
    s = minute + timedelta(seconds=rnd.uniform(5, 52))
    request(s, s + timedelta(milliseconds=1300 + rnd.uniform(0, 500)))
    if m in (1, 4):
        request(minute + timedelta(seconds=rnd.uniform(12, 55)))
# the queue worker reports every ~10 s
t = T0 + timedelta(seconds=rnd.uniform(2, 8))
done = 0
while t < T0 + timedelta(minutes=6):
    done += rnd.randint(0, 4)
    add(t, 'shop-worker[2301]', f'msg="queue heartbeat" queue=emails processed={done} pending={rnd.randint(0, 3)}')
    t += timedelta(seconds=rnd.uniform(9.0, 11.0))
ev.sort()
print('\n'.join(x for _, x in ev))
