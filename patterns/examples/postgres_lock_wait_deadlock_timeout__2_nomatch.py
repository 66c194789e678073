"""PostgreSQL 16: an outbox relay polls with SELECT pg_sleep(1): 1.000 s gaps, no lock wait.

Mechanism. A legacy relay worker reads unsent rows from an outbox table and, when there are
none, sleeps on the server with SELECT pg_sleep(1) before it polls again. With log_statement =
'all' each statement is logged when it starts, so the worker's backend shows a gap of 1 s plus
a round trip after every pg_sleep line: the same length as PostgreSQL's deadlock_timeout, and
the log even has log_lock_waits switched on, but no statement waits for a lock: nothing says
"still waiting for ... Lock" or "deadlock detected".

Intervals.
* pg_sleep(1): WaitLatch with a 1000 ms timeout, late by 0.05-0.3 ms; the result goes back to
  the worker and its next statement arrives 0.1-0.5 ms later: 1000.2-1000.8 ms between the
  lines (stamps in whole ms).
* The poll itself: 0.3-1.2 ms from its line to the pg_sleep line (when a batch is found, the
  rows are marked sent in 1-4 ms and the worker polls again at once).
* Web backends: a few statements 0.5-5 ms apart, one request every ~3 s.
"""
EXPECT = "no-match"
DESCRIPTION = "PostgreSQL 16 log (log_statement=all, log_lock_waits=on): an outbox relay sleeps with SELECT pg_sleep(1) between polls, so its backend shows 1.000 s gaps before every next poll, but no lock wait is logged"
import random
from datetime import datetime, timedelta, timezone

rnd = random.Random(3802)
T0 = datetime(2026, 11, 29, 11, 0, 0, 0, tzinfo=timezone.utc)
ev = []
seq = [0]


def log(t, pid, who, level, msg):
    seq[0] += 1
    stamp = t.strftime('%Y-%m-%d %H:%M:%S.') + f'{t.microsecond // 1000:03d} UTC'
    ev.append((t, seq[0], f'{stamp} [{pid}] {who}{level}:  {msg}'))


def ms(x):
    return timedelta(milliseconds=x)


END = T0 + timedelta(seconds=100)
log(T0 + ms(12), 1187, '', 'LOG', 'received SIGHUP, reloading configuration files')
log(T0 + ms(13), 1187, '', 'LOG', 'parameter "log_lock_waits" changed to "on"')
log(T0 + ms(13), 1187, '', 'LOG', 'parameter "log_statement" changed to "all"')

# the relay worker
pid, who = 51877, 'relay@shop '
t = T0 + ms(640)
next_id = 903311
while t < END:
    log(t, pid, who, 'LOG', 'statement: SELECT id, topic, payload FROM outbox WHERE sent_at IS NULL ORDER BY id LIMIT 100')
    t += ms(rnd.uniform(0.3, 1.2))
    if rnd.random() < 0.15:
        n = rnd.randint(1, 6)
        ids = ','.join(str(next_id + k) for k in range(n))
        next_id += n
        log(t, pid, who, 'LOG', f'statement: UPDATE outbox SET sent_at = now() WHERE id IN ({ids})')
        t += ms(rnd.uniform(1.0, 4.0))
        continue
    log(t, pid, who, 'LOG', 'statement: SELECT pg_sleep(1)')
    t += ms(1000 + rnd.uniform(0.05, 0.3) + rnd.uniform(0.1, 0.5))

# web backends
pids = [51901, 51902, 51903, 51904]
t = T0 + ms(300)
while t < END:
    p = rnd.choice(pids)
    w = 'shop@shop '
    u = t
    user = rnd.randint(1, 50000)
    log(u, p, w, 'LOG', f'statement: SELECT id, email, name FROM users WHERE id = {user}')
    u += ms(rnd.uniform(0.5, 2.0))
    log(u, p, w, 'LOG', f'statement: SELECT p.id, p.title, p.price FROM products p JOIN cart_items c ON c.product_id = p.id WHERE c.user_id = {user}')
    u += ms(rnd.uniform(0.8, 5.0))
    if rnd.random() < 0.4:
        log(u, p, w, 'LOG', 'statement: BEGIN')
        u += ms(rnd.uniform(0.2, 0.8))
        log(u, p, w, 'LOG', f'statement: INSERT INTO orders (user_id, total) VALUES ({user}, {rnd.randint(500, 40000)}) RETURNING id')
        u += ms(rnd.uniform(0.6, 2.5))
        log(u, p, w, 'LOG', f'statement: INSERT INTO outbox (topic, payload) VALUES (\'order.created\', \'{{"user":{user}}}\')')
        u += ms(rnd.uniform(0.4, 1.5))
        log(u, p, w, 'LOG', 'statement: COMMIT')
    t += ms(rnd.expovariate(1 / 3000.0))

ev.sort(key=lambda e: (e[0], e[1]))
for _, _, line in ev:
    print(line)
