EXPECT = "match"
DESCRIPTION = "a Flask API on SQLite: a rollup job takes the write lock on every minute tick for 85-99 ms, and the sensor writes that arrive on the same tick get the lock at the busy handler's 9th wake-up, 103.9-104.2 ms after BEGIN IMMEDIATE, not when the rollup commits"
import random, bisect
from datetime import datetime, timedelta, timezone

rnd = random.Random(20)
T0 = datetime(2026, 11, 29, 13, 0, 59, 950000, tzinfo=timezone.utc)
DELAYS = [1, 2, 5, 10, 15, 20, 25, 25, 25, 50, 50, 100]

def wakeups():
    # sqliteDefaultBusyCallback: cumulative wake-ups; every sleep runs ~0.08-0.12 ms late
    acc, out = 0.0, []
    for i in range(60):
        acc += (DELAYS[i] if i < len(DELAYS) else 100) + rnd.uniform(0.07, 0.12)
        out.append(acc)
    return out

events = []
def add(ms, text):
    events.append((ms, text))

free_at = 0.0        # when the write lock is next free
reqs = []
tick = 50.0          # the first minute tick, 50 ms into the log
for m in range(8):
    hold = rnd.uniform(85, 99)
    add(tick, 'level=info logger=rollup event="rollup BEGIN IMMEDIATE" db=/var/lib/sensors/readings.sqlite3 window=1m')
    add(tick + hold, f'level=info logger=rollup event="rollup COMMIT" db=/var/lib/sensors/readings.sqlite3 rows={rnd.randint(800, 2400)} elapsed_ms={hold:.1f}')
    busy_until = tick + hold
    # two sensors report on the same tick; another one at a random moment
    starts = sorted([tick + rnd.uniform(0.4, 4.0), tick + rnd.uniform(0.4, 4.0)])
    if m % 3 == 1:
        starts.append(tick + rnd.uniform(300, 9000))
    for s in starts:
        rid = '%016x' % rnd.getrandbits(64)
        add(s, f'level=info logger=api event="POST /api/v1/readings" request_id={rid} sensor=th-{rnd.randint(100, 999)}')
        b = s + rnd.uniform(0.3, 0.9)
        add(b, f'level=debug logger=api event="sqlite BEGIN IMMEDIATE" request_id={rid} db=/var/lib/sensors/readings.sqlite3')
        got = b
        if b < busy_until:
            w = wakeups()
            got = b + w[bisect.bisect_left(w, busy_until - b)]
        c = got + rnd.uniform(0.15, 0.45)
        busy_until = c
        add(c, f'level=debug logger=api event="sqlite COMMIT" request_id={rid} rows=1 elapsed_ms={c - b:.1f}')
    tick += 60000.0 + rnd.uniform(-3, 3)

events.sort()
for ms, text in events:
    ts = (T0 + timedelta(milliseconds=ms)).strftime('%Y-%m-%dT%H:%M:%S.%fZ')
    print(f'time={ts} {text}')
