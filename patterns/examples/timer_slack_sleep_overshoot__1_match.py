EXPECT = "match"
DESCRIPTION = "a C++ ring-buffer consumer (glog at VLOG 2) polls a shared-memory queue and calls usleep(1000) when it is empty: every empty pass takes 1.06-1.11 ms, not 1.000 ms"
import random
from datetime import datetime, timedelta

rnd = random.Random(1083)
t = datetime(2026, 11, 29, 12, 10, 4, 118406)
tid = 4242
lines = []

def emit(sev, src, msg):
    lines.append(f'{sev}{t.strftime("%m%d %H:%M:%S.%f")} {tid:6d} {src}] {msg}')

emit('I', 'ring_consumer.cc:62', 'attached to /dev/shm/md-feed-eu1 slots=65536 slot_bytes=256 wait=usleep(1000)')
t += timedelta(microseconds=rnd.randint(40, 90))
seq = 88123410
for i in range(70):
    if rnd.random() < 0.12:
        n = rnd.randint(1, 5)
        seq += n
        # frames arrived: decode and publish them, then poll again at once
        t += timedelta(microseconds=rnd.randint(12, 60))
        emit('I', 'ring_consumer.cc:158', f'consumed {n} frames last_seq={seq}')
        t += timedelta(microseconds=rnd.randint(3, 12))
        continue
    emit('I', 'ring_consumer.cc:141', 'ring empty, usleep(1000)')
    # 1000 us requested + up to 50 us of timer slack + the wake-up of an idle CPU + the next poll
    t += timedelta(microseconds=1000 + rnd.uniform(40, 52) + max(0, rnd.gauss(30, 9)) + rnd.uniform(2, 6))
print('\n'.join(lines))
