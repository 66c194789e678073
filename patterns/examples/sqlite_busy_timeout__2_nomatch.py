EXPECT = "no-match"
DESCRIPTION = "PostgreSQL with log_lock_waits: each blocked UPDATE logs 'still waiting for ShareLock' after deadlock_timeout (1000 ms), the same value as SQLite's 1 s busy steps, but a server row lock"
import random
from datetime import datetime, timedelta, timezone

rnd = random.Random(38)
lines = []
t = datetime(2026, 11, 29, 13, 20, 0, 113000, tzinfo=timezone.utc)

def ts(x):
    return x.strftime('%Y-%m-%d %H:%M:%S.') + f'{x.microsecond // 1000:03d} UTC'

out = []
holder = 4240
xid = 778800
for i in range(9):
    pid = 4251 + i * 3
    xid += rnd.randint(2, 9)
    acct = rnd.choice([17, 17, 17, 23, 42])
    start = t + timedelta(milliseconds=rnd.uniform(0, 400))
    stmt = f'UPDATE accounts SET balance = balance - {rnd.randint(5, 90)} WHERE id = {acct}'
    out.append((start, f'[{pid}] LOG:  statement: {stmt}'))
    w = start + timedelta(milliseconds=1000 + rnd.uniform(0.05, 0.6))
    out.append((w, f'[{pid}] LOG:  process {pid} still waiting for ShareLock on transaction {xid} after {(w - start).total_seconds() * 1000:.3f} ms'))
    out.append((w, f'[{pid}] DETAIL:  Process holding the lock: {holder}. Wait queue: {pid}.'))
    out.append((w, f'[{pid}] CONTEXT:  while updating tuple (0,{acct}) in relation "accounts"'))
    out.append((w, f'[{pid}] STATEMENT:  {stmt}'))
    done = start + timedelta(milliseconds=rnd.uniform(1150, 2900))
    out.append((done, f'[{pid}] LOG:  process {pid} acquired ShareLock on transaction {xid} after {(done - start).total_seconds() * 1000:.3f} ms'))
    out.append((done + timedelta(milliseconds=rnd.uniform(0.2, 1.5)), f'[{pid}] LOG:  duration: {(done - start).total_seconds() * 1000 + 0.8:.3f} ms'))
    t = done + timedelta(milliseconds=rnd.uniform(100, 900))
out.sort(key=lambda x: x[0])
for when, text in out:
    lines.append(f'{ts(when)} {text}')
print('\n'.join(lines))
