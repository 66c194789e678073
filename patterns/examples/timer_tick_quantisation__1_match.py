EXPECT = "match"
DESCRIPTION = "a cache-warming worker writes one to three keys with noreply and then reads one back, over one memcached connection to a CONFIG_HZ=250 host: every item takes 44, 48, 88, 92 or 132 ms, whole 4 ms jiffies"
import random
from datetime import datetime, timedelta, timezone

rnd = random.Random(250)
t = datetime(2026, 11, 29, 11, 20, 0, 183000, tzinfo=timezone.utc)
lines = []

def emit(msg, **kv):
    extra = ' '.join(f'{k}={v}' for k, v in kv.items())
    lines.append(f'{t.strftime("%Y-%m-%dT%H:%M:%S.%fZ")} level=debug worker=cache-warm {msg} {extra}'.rstrip())

lines.append(f'{t.strftime("%Y-%m-%dT%H:%M:%S.%fZ")} level=info worker=cache-warm msg="connected" server=10.64.0.12:11211 proto=ascii tcp_nodelay=false')
t += timedelta(microseconds=rnd.randint(300, 900))
item = 40310
for _ in range(68):
    item += rnd.randint(1, 9)
    k = rnd.choices([1, 2, 3], [45, 35, 20])[0]
    # each noreply write is held by Nagle until the server's delayed ACK for the previous one:
    # 10 + 1 jiffies = 44 ms at HZ=250, now and then one tick more
    took = sum(44.0 + (4.0 if rnd.random() < 0.22 else 0.0) for _ in range(k)) - rnd.uniform(0.02, 0.12)
    hit = rnd.random() < 0.7
    t += timedelta(milliseconds=took)
    emit('msg="memcached warm"', item=item, noreply_writes=k, get='hit' if hit else 'miss', took_ms=f'{took:.1f}')
    t += timedelta(microseconds=rnd.randint(150, 650))
lines.append(f'{t.strftime("%Y-%m-%dT%H:%M:%S.%fZ")} level=info worker=cache-warm msg="batch done" items=68')
print('\n'.join(lines))
