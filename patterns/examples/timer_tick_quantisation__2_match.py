EXPECT = "match"
DESCRIPTION = "the same worker against a CONFIG_HZ=100 memcached host: items take 50, 60, 100, 110 or 150 ms, whole 10 ms jiffies (a 10 ms lattice that is no sleep loop)"
import random
from datetime import datetime, timedelta, timezone

rnd = random.Random(100)
t = datetime(2026, 11, 29, 11, 40, 0, 702000, tzinfo=timezone.utc)
lines = []

def emit(msg, **kv):
    extra = ' '.join(f'{k}={v}' for k, v in kv.items())
    lines.append(f'{t.strftime("%Y-%m-%dT%H:%M:%S.%fZ")} level=debug worker=cache-warm {msg} {extra}'.rstrip())

lines.append(f'{t.strftime("%Y-%m-%dT%H:%M:%S.%fZ")} level=info worker=cache-warm msg="connected" server=10.64.0.31:11211 proto=ascii tcp_nodelay=false')
t += timedelta(microseconds=rnd.randint(300, 900))
item = 91200
for _ in range(60):
    item += rnd.randint(1, 9)
    k = rnd.choices([1, 2, 3], [45, 35, 20])[0]
    # 4 + 1 jiffies = 50 ms per delayed ACK at HZ=100, now and then one tick more (60 ms)
    took = sum(50.0 + (10.0 if rnd.random() < 0.2 else 0.0) for _ in range(k)) - rnd.uniform(0.02, 0.12)
    t += timedelta(milliseconds=took)
    emit('msg="memcached warm"', item=item, noreply_writes=k, get='hit' if rnd.random() < 0.7 else 'miss', took_ms=f'{took:.1f}')
    t += timedelta(microseconds=rnd.randint(150, 650))
lines.append(f'{t.strftime("%Y-%m-%dT%H:%M:%S.%fZ")} level=info worker=cache-warm msg="batch done" items=60')
print('\n'.join(lines))
