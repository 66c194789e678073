EXPECT = "no-match"
DESCRIPTION = "a metrics reporter that flushes a batch of 12 lines every 30 s by its own timer: the same burst-and-silence shape, but every line is kept and journald suppresses nothing"
import random
from datetime import datetime, timedelta, timezone

rnd = random.Random(41)
T0 = datetime(2026, 11, 29, 17, 30, 0, 412000, tzinfo=timezone.utc)
host = 'shop1'
ev = []

def add(t, prog, msg):
    ev.append((t, f'{t.strftime("%Y-%m-%dT%H:%M:%S.%f")}+00:00 {host} {prog}: {msg}'))

add(T0 - timedelta(seconds=3.1), 'systemd[1]', 'Started shop-metrics.service - Metrics reporter.')
add(T0 - timedelta(seconds=2.8), 'shop-metrics[3377]', 'level=info msg="starting" interval=30s sink=statsd://10.64.0.40:8125')
names = ['http.requests', 'http.errors', 'http.p50_ms', 'http.p99_ms', 'db.pool.busy', 'db.pool.idle', 'cache.hits', 'cache.misses', 'queue.depth', 'gc.pause_ms', 'rss_mb', 'goroutines']
t = T0
for w in range(6):
    start = t
    for name in names:
        add(t, 'shop-metrics[3377]', f'level=debug msg="metric flushed" name={name} value={rnd.randint(0, 9000)}')
        t += timedelta(milliseconds=rnd.expovariate(1 / 8.0) + 0.3)
    t = start + timedelta(seconds=30, milliseconds=rnd.uniform(0.3, 2.0))
ev.sort()
print('\n'.join(x for _, x in ev))
