EXPECT = "no-match"
DESCRIPTION = "the same Kubernetes pod (ndots:5, cluster.local services): an outbox relay that backs off 5 s when its table is empty, with no lookup near the gaps"
import random
from datetime import datetime, timedelta, timezone

rnd = random.Random(12)
t = datetime(2026, 11, 29, 15, 30, 0, 4521, tzinfo=timezone.utc)
lines = []

def ts(x):
    return x.strftime('%Y-%m-%dT%H:%M:%S.%fZ')

def emit(level, event, **kv):
    extra = ' '.join(f'{k}={v}' for k, v in kv.items())
    lines.append(f'timestamp={ts(t)} level={level} logger=outbox event="{event}" {extra}'.rstrip())

emit('info', 'worker booted', pod='checkout-outbox-5c8d7b9f4-q7wzl', namespace='shop', pid=7, image='python:3.12-slim-bookworm')
t += timedelta(microseconds=910)
emit('info', 'resolver config', nameserver='10.96.0.10', search='"shop.svc.cluster.local svc.cluster.local cluster.local"', options='ndots:5')
t += timedelta(microseconds=rnd.randint(2000, 4000))
emit('info', 'connected', backend='postgres.shop.svc.cluster.local:5432', db='orders')
t += timedelta(milliseconds=rnd.uniform(5, 30))
for i in range(1, 16):
    rid = 'relay-%04d' % i
    emit('debug', 'polling outbox', request_id=rid, table='outbox_events', batch=100)
    t += timedelta(milliseconds=rnd.uniform(0.8, 2.5))
    if i % 4 == 0:
        n = rnd.randint(3, 40)
        emit('info', 'published', request_id=rid, events=n, topic='orders.v1')
        t += timedelta(milliseconds=rnd.uniform(20, 80))
        continue
    emit('debug', 'outbox empty, backing off', request_id=rid, sleep_s=5)
    t += timedelta(milliseconds=5000 + rnd.uniform(0.1, 1.2))
    emit('debug', 'backoff over', request_id=rid)
    t += timedelta(microseconds=rnd.randint(100, 400))
print('\n'.join(lines))
