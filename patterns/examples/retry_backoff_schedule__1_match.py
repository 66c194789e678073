EXPECT = "match"
DESCRIPTION = "an API whose inventory upstream answers 503 for a while: each request retries with a doubling back-off, 100, 200, 400 and 800 ms between attempts"
import random
from datetime import datetime, timedelta, timezone

rnd = random.Random(25)
t = datetime(2026, 11, 29, 14, 0, 0, 42000, tzinfo=timezone.utc)
lines = []

def emit(level, rid, msg, **kv):
    extra = ' '.join(f'{k}={v}' for k, v in kv.items())
    lines.append(f'{t.strftime("%Y-%m-%dT%H:%M:%S.%fZ")} level={level} reqId={rid} msg="{msg}" {extra}'.rstrip())

for r in range(7):
    rid = '%016x' % rnd.getrandbits(64)
    emit('info', rid, 'GET /v2/cart/summary')
    t += timedelta(microseconds=rnd.randint(300, 1200))
    fails = rnd.choice([2, 3, 3, 4])
    for a in range(1, fails + 2):
        emit('debug', rid, 'calling inventory', attempt=a, upstream='inventory:8080')
        t += timedelta(milliseconds=rnd.uniform(1.5, 4.5))
        if a <= fails:
            back = 100 * 2 ** (a - 1)
            emit('warn', rid, f'inventory returned 503 Service Unavailable, retrying in {back}ms', attempt=a)
            # the sleep: late by the timer slack and the wake-up
            t += timedelta(milliseconds=back + rnd.uniform(0.08, 0.35))
        else:
            emit('debug', rid, 'inventory ok', attempt=a, status=200)
            t += timedelta(microseconds=rnd.randint(400, 1500))
    emit('info', rid, 'GET /v2/cart/summary done', status=200)
    t += timedelta(milliseconds=rnd.uniform(150, 1200))
print('\n'.join(lines))
