EXPECT = "match"
DESCRIPTION = "a Python checkout service in a Kubernetes pod (glibc image, ndots:5, cluster.local search domains): 9 of 11 lookups of an external name take 5.00x s, the rest 3-6 ms; pooled connections skip the lookup"
import random
from datetime import datetime, timedelta, timezone

rnd = random.Random(11)
t = datetime(2026, 11, 29, 15, 0, 0, 12345, tzinfo=timezone.utc)
lines = []

def ts(x):
    return x.strftime('%Y-%m-%dT%H:%M:%S.%fZ')

def emit(level, event, **kv):
    extra = ' '.join(f'{k}={v}' for k, v in kv.items())
    lines.append(f'timestamp={ts(t)} level={level} logger=checkout event="{event}" {extra}'.rstrip())

emit('info', 'worker booted', pod='checkout-api-7d9f8c6b5-x2kqp', namespace='shop', pid=8, image='python:3.12-slim-bookworm')
t += timedelta(microseconds=850)
emit('info', 'resolver config', nameserver='10.96.0.10', search='"shop.svc.cluster.local svc.cluster.local cluster.local"', options='ndots:5')
t += timedelta(seconds=1.7)

host = 'api.payments-partner.example'
slow = [True, True, False, True, True, True, True, False, True, True, True]
pattern = ['new', 'new', 'reuse', 'new', 'new', 'new', 'reuse', 'new', 'new', 'new', 'reuse', 'new', 'new', 'new']
k = 0
for i, kind in enumerate(pattern):
    rid = '%016x' % rnd.getrandbits(64)
    emit('info', 'request started', request_id=rid, method='POST', path='/api/v1/orders')
    t += timedelta(microseconds=rnd.randint(600, 2400))
    emit('debug', 'cart loaded', request_id=rid, backend='redis.shop.svc.cluster.local:6379', items=rnd.randint(1, 6))
    t += timedelta(microseconds=rnd.randint(300, 900))
    if kind == 'new':
        emit('debug', 'resolving', request_id=rid, host=host, family='AF_UNSPEC')
        if slow[k]:
            # one packet of the parallel A/AAAA pair dropped: RES_TIMEOUT (5 s) + the retried pair
            d = 5000.0 + rnd.uniform(1.2, 5.5)
        else:
            # four A+AAAA pairs: three NXDOMAIN search expansions, then the name itself
            d = rnd.uniform(3.0, 6.0)
        k += 1
        t += timedelta(milliseconds=d)
        emit('debug', 'resolved', request_id=rid, host=host, addrs=2, elapsed_ms=f'{d:.1f}')
        t += timedelta(microseconds=rnd.randint(200, 600))
        call = rnd.uniform(48, 95)
    else:
        call = rnd.uniform(28, 60)
    t += timedelta(milliseconds=call)
    emit('debug', 'payments call done', request_id=rid, status=201, conn='new' if kind == 'new' else 'reused', elapsed_ms=f'{call:.1f}')
    t += timedelta(microseconds=rnd.randint(400, 1500))
    emit('info', 'request finished', request_id=rid, status=201)
    t += timedelta(milliseconds=rnd.uniform(300, 2500))

print('\n'.join(lines))
