"""A Go inventory service on MySQL 8.0: reservations of hot SKUs time out after 50-51 s.

Mechanism. A repricing batch updates every `stock` row of one category in a single
transaction and commits only after about seven minutes. A checkout runs
UPDATE stock SET reserved = reserved + ? WHERE sku = ? in its own transaction; for a SKU the
batch has already updated, InnoDB queues an X record lock request and the session thread
sleeps in lock_wait_suspend_thread(). In MySQL 8.0 the waits are not timed by the sleeper: the
background lock_wait_timeout_thread() checks all waiting slots (lock_wait_check_and_cancel:
steady_clock::now() - suspend_time > innodb_lock_wait_timeout) once per second
(os_event_wait_time_low(event, 1000000)), and also whenever a new lock wait starts
(lock_wait_request_check_for_cycles sets its event). A wait therefore ends at the first pass
after 50 s: between 50.0 and 51.0 s after it began. The statement is rolled back and
go-sql-driver/mysql returns "Error 1205 (HY000): Lock wait timeout exceeded; try restarting
transaction".

Intervals.
* "reserve stock" is logged right before ExecContext; the UPDATE reaches InnoDB 0.2-0.6 ms later.
* The wait: 50 s plus the time to the timeout thread's next pass (0-1 s, passes every ~1 s
  plus 0.05-0.3 ms of timer slack and scheduling, or at the start of another wait).
* Error packet and the log call: 0.1-0.4 ms.
* Other checkouts (other SKUs) take 2-9 ms; requests arrive about every 8 s.
"""
EXPECT = "match"
DESCRIPTION = "Go (slog JSON) inventory service on MySQL 8.0: a repricing batch holds the stock rows of one category for ~7 minutes, and 10 checkouts of those SKUs fail with \"Error 1205 (HY000): Lock wait timeout exceeded\" 50.0-51.0 s after their UPDATE (the timeout thread's 1 s passes); other checkouts take 2-9 ms"
import json
import random
from datetime import datetime, timedelta, timezone

rnd = random.Random(3701)
T0 = datetime(2026, 11, 29, 2, 10, 0, 0, tzinfo=timezone.utc)
ev = []


def log(t, level, msg, **kv):
    rec = {'time': t.strftime('%Y-%m-%dT%H:%M:%S.') + f'{t.microsecond // 1000:03d}Z', 'level': level, 'msg': msg}
    rec.update(kv)
    ev.append((t, json.dumps(rec, separators=(',', ':'))))


def ms(x):
    return timedelta(milliseconds=x)


HOT = ['GRD-%04d' % n for n in (1042, 1043, 1057, 1101, 1188)]
LOCK_FROM = T0 + timedelta(seconds=40)
LOCK_TO = LOCK_FROM + timedelta(seconds=425)

# the repricing batch (another service's transaction, logged by its own trace)
trace = '%032x' % rnd.getrandbits(128)
log(LOCK_FROM - ms(3.1), 'INFO', 'reprice batch started', trace_id=trace, category='garden', rows=18422)
for k in range(1, 7):
    log(LOCK_FROM + timedelta(seconds=60 * k + rnd.uniform(-2, 2)), 'INFO', 'reprice batch progress', trace_id=trace, updated=3000 * k)
log(LOCK_TO, 'INFO', 'reprice batch committed', trace_id=trace, updated=18422, elapsed_s=round((LOCK_TO - LOCK_FROM).total_seconds(), 1))

# blocked checkouts: when each wait starts
starts = sorted(LOCK_FROM + timedelta(seconds=rnd.uniform(10, 360)) for _ in range(10))
waits = [s + ms(rnd.uniform(0.2, 0.6)) for s in starts]

# the timeout thread: a pass every second (plus slack), and one at the start of every wait
passes = []
p = T0
while p < LOCK_TO + timedelta(seconds=120):
    nxt = p + ms(1000 + rnd.uniform(0.05, 0.3))
    sooner = [w for w in waits if p < w < nxt]
    p = min(sooner) if sooner else nxt
    passes.append(p)


def timeout_at(w):
    for q in passes:
        if (q - w).total_seconds() > 50.0:
            return q
    raise RuntimeError


def request(t, sku, wait_start=None):
    rid = '%032x' % rnd.getrandbits(128)
    order = rnd.randint(700000, 799999)
    log(t, 'INFO', 'request started', request_id=rid, method='POST', path='/v1/checkout', order=order)
    t += ms(rnd.uniform(0.8, 2.5))
    log(t, 'DEBUG', 'reserve stock', request_id=rid, sku=sku, qty=rnd.randint(1, 3),
        sql='UPDATE stock SET reserved = reserved + ? WHERE sku = ?')
    begin = t
    if wait_start is not None:
        t = timeout_at(wait_start) + ms(rnd.uniform(0.1, 0.4))
        log(t, 'ERROR', 'reserve stock failed', request_id=rid, sku=sku,
            err='Error 1205 (HY000): Lock wait timeout exceeded; try restarting transaction')
        t += ms(rnd.uniform(0.2, 0.8))
        log(t, 'INFO', 'request finished', request_id=rid, status=503, duration_ms=round((t - begin).total_seconds() * 1000 + 2, 1))
        return
    t += ms(rnd.uniform(0.6, 2.0))
    log(t, 'DEBUG', 'stock reserved', request_id=rid, sku=sku, rows_affected=1)
    t += ms(rnd.uniform(1.0, 4.0))
    log(t, 'INFO', 'request finished', request_id=rid, status=201, duration_ms=round((t - begin).total_seconds() * 1000 + 2, 1))


for s, w in zip(starts, waits):
    request(s - ms(rnd.uniform(0.8, 2.5)), rnd.choice(HOT), wait_start=w)

t = T0 + ms(rnd.uniform(200, 2000))
while t < LOCK_TO + timedelta(seconds=90):
    request(t, 'KIT-%04d' % rnd.randint(2000, 2999))
    t += ms(rnd.expovariate(1 / 8000.0))

ev.sort(key=lambda e: e[0])
for _, line in ev:
    print(line)
