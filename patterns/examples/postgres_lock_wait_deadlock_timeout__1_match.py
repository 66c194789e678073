"""PostgreSQL 16: row-lock waits on a hot account row, logged by log_lock_waits at deadlock_timeout (1 s).

Mechanism. A payments service updates the balance of one merchant account in every
transaction and then calls the card processor (1.2-4 s) before it commits, holding the row lock
all that time. A second transaction's UPDATE of the same row finds the tuple locked and sleeps
in ProcSleep() on the holder's transaction id (ShareLock on transaction N). Before sleeping it
arms the DEADLOCK_TIMEOUT timer for deadlock_timeout = 1 s; when it fires, CheckDeadLock() runs
the deadlock search and, with log_lock_waits = on, the backend logs "process P still waiting for
ShareLock on transaction N after 1000.xxx ms" (DETAIL: holder and wait queue). When the holder
commits it logs "acquired ... after ..." and the statement completes. If the search finds a
cycle (two transactions that update the same two accounts in opposite order), the backend
instead fails with "ERROR: deadlock detected", also 1 s after the wait began.

Settings: log_line_prefix = '%m [%p] %q%u@%d ', log_statement = 'mod' (the UPDATE is logged when
it starts), log_lock_waits = on, log_min_duration_statement = 1000.

Intervals.
* "statement:" line -> the wait starts: 0.05-0.4 ms (planning, reaching the tuple).
* The wait -> "still waiting" / "deadlock detected": 1000 ms (setitimer, SIGALRM) + 0.03-0.3 ms
  (timer slack, signal, deadlock search); PostgreSQL reports the time since the timer started.
  So the gap before the line is 1000.1-1000.7 ms in every wait (stamps in whole ms).
* "still waiting" -> "acquired": the rest of the holder's transaction (0.2-3 s).
* Transactions that do not collide: a few ms between their statements; payments to the hot
  account arrive about every 6 s, others as often.
"""
EXPECT = "match"
DESCRIPTION = "PostgreSQL 16 log (log_statement=mod, log_lock_waits=on): payments that update a hot account row while another transaction holds it for 1.2-4 s log \"still waiting for ShareLock on transaction N after 1000.x ms\" 1.000 s after their UPDATE, and two crossed transfers end in \"deadlock detected\" after the same 1 s"
import random
from datetime import datetime, timedelta, timezone

rnd = random.Random(38)
T0 = datetime(2026, 11, 29, 10, 15, 0, 0, tzinfo=timezone.utc)
ev = []
seq = [0]


def log(t, pid, level, msg):
    seq[0] += 1
    stamp = t.strftime('%Y-%m-%d %H:%M:%S.') + f'{t.microsecond // 1000:03d} UTC'
    ev.append((t, seq[0], f'{stamp} [{pid}] pay@payments {level}:  {msg}'))


def ms(x):
    return timedelta(milliseconds=x)


xid = [88123400]
pids = list(range(48201, 48213))
free_at = {p: T0 for p in pids}   # when each backend (pool connection) is free again
hot_held_until = T0               # the hot account's row lock
hot_holder = None


def backend(t):
    ready = [p for p in pids if free_at[p] <= t]
    return rnd.choice(ready) if ready else min(pids, key=lambda p: free_at[p])


def payment(t, account, hot):
    global hot_held_until, hot_holder
    pid = backend(t)
    t = max(t, free_at[pid])
    xid[0] += rnd.randint(1, 40)
    amount = rnd.randint(199, 99999)
    upd = f'UPDATE accounts SET balance = balance + {amount}, updated_at = now() WHERE id = {account}'
    log(t, pid, 'LOG', f'statement: {upd}')
    wait_start = t + ms(rnd.uniform(0.05, 0.4))
    if hot and hot_held_until > wait_start:
        fire = wait_start + ms(1000 + rnd.uniform(0.03, 0.3))
        reported = (fire - wait_start).total_seconds() * 1000 + rnd.uniform(0.005, 0.03)
        if fire < hot_held_until:
            log(fire, pid, 'LOG', f'process {pid} still waiting for ShareLock on transaction {hot_xid[0]} after {reported:.3f} ms')
            log(fire, pid, 'DETAIL', f'Process holding the lock: {hot_holder}. Wait queue: {pid}.')
            log(fire, pid, 'CONTEXT', f'while updating tuple (0,{account % 40 + 1}) in relation "accounts"')
            log(fire, pid, 'STATEMENT', upd)
        got = hot_held_until + ms(rnd.uniform(0.05, 0.3))
        waited = (got - wait_start).total_seconds() * 1000
        if fire < hot_held_until:
            log(got, pid, 'LOG', f'process {pid} acquired ShareLock on transaction {hot_xid[0]} after {waited:.3f} ms')
            log(got, pid, 'CONTEXT', f'while updating tuple (0,{account % 40 + 1}) in relation "accounts"')
            log(got, pid, 'STATEMENT', upd)
        t = got + ms(rnd.uniform(0.1, 0.5))
        log(t, pid, 'LOG', f'duration: {(t - wait_start).total_seconds() * 1000 + 0.2:.3f} ms')
    else:
        t = wait_start + ms(rnd.uniform(0.2, 0.9))
    # the card processor call, inside the transaction, then the ledger row and COMMIT
    hold = rnd.uniform(1200, 4000) if hot else rnd.uniform(150, 900)
    if hot:
        hot_holder, hot_xid[0] = pid, xid[0]
        hot_held_until = t + ms(hold) + ms(1.5)
    t += ms(hold)
    log(t, pid, 'LOG', f'statement: INSERT INTO ledger (account_id, amount, processor_ref) VALUES ({account}, {amount}, \'ch_{"%024x" % rnd.getrandbits(96)}\')')
    t += ms(rnd.uniform(0.6, 1.8))
    free_at[pid] = t + ms(rnd.uniform(0.5, 3))


hot_xid = [0]
# payments to the hot merchant account 1001 (about one every 6 s), and to other accounts
t = T0 + ms(300)
while t < T0 + timedelta(minutes=5):
    payment(t, 1001, True)
    t += ms(rnd.expovariate(1 / 6000.0))
t = T0 + ms(700)
while t < T0 + timedelta(minutes=5):
    payment(t, rnd.randint(2000, 9000), False)
    t += ms(rnd.expovariate(1 / 6000.0))

# two transfers between accounts 3120 and 3377 in opposite order: a deadlock, found after 1 s
t = T0 + timedelta(seconds=151.2)
ta = t
tb = t + ms(2.7)
log(ta, 48230, 'LOG', 'statement: UPDATE accounts SET balance = balance - 5000 WHERE id = 3120')
log(tb, 48231, 'LOG', 'statement: UPDATE accounts SET balance = balance - 2500 WHERE id = 3377')
ta2 = ta + ms(rnd.uniform(1.5, 3.0))
tb2 = tb + ms(rnd.uniform(1.5, 3.0))
log(ta2, 48230, 'LOG', 'statement: UPDATE accounts SET balance = balance + 5000 WHERE id = 3377')
log(tb2, 48231, 'LOG', 'statement: UPDATE accounts SET balance = balance + 2500 WHERE id = 3120')
# 48230 waits first; its timer fires first, but no cycle yet exists from its point of view only
# once 48231 waits too; 48230's check (1 s after its wait began) finds the cycle and it is the victim
fa = ta2 + ms(0.2) + ms(1000 + rnd.uniform(0.05, 0.3))
log(fa, 48230, 'ERROR', 'deadlock detected')
log(fa, 48230, 'DETAIL', f'Process 48230 waits for ShareLock on transaction {xid[0] + 7}; blocked by process 48231.\n'
    f'\tProcess 48231 waits for ShareLock on transaction {xid[0] + 3}; blocked by process 48230.\n'
    '\tProcess 48230: UPDATE accounts SET balance = balance + 5000 WHERE id = 3377\n'
    '\tProcess 48231: UPDATE accounts SET balance = balance + 2500 WHERE id = 3120')
log(fa, 48230, 'HINT', 'See server log for query details.')
log(fa, 48230, 'CONTEXT', 'while updating tuple (0,12) in relation "accounts"')
log(fa, 48230, 'STATEMENT', 'UPDATE accounts SET balance = balance + 5000 WHERE id = 3377')
fb = fa + ms(0.4)
log(fb, 48231, 'LOG', f'duration: {(fb - tb2).total_seconds() * 1000:.3f} ms')

ev.sort(key=lambda e: (e[0], e[1]))
for _, _, line in ev:
    print(line)
