EXPECT = "no-match"
DESCRIPTION = "the same consumer after prctl(PR_SET_TIMERSLACK, 1): empty passes take 1.02-1.04 ms, wake-up latency only"
import random
from datetime import datetime, timedelta

rnd = random.Random(1026)
t = datetime(2026, 11, 29, 12, 40, 1, 50112)
tid = 4311
lines = []

def emit(sev, src, msg):
    lines.append(f'{sev}{t.strftime("%m%d %H:%M:%S.%f")} {tid:6d} {src}] {msg}')

emit('I', 'ring_consumer.cc:62', 'attached to /dev/shm/md-feed-eu1 slots=65536 slot_bytes=256 wait=usleep(1000)')
t += timedelta(microseconds=rnd.randint(20, 40))
emit('I', 'ring_consumer.cc:70', 'prctl(PR_SET_TIMERSLACK, 1) ok: timerslack_ns=1')
t += timedelta(microseconds=rnd.randint(40, 90))
seq = 88990012
for i in range(70):
    if rnd.random() < 0.12:
        n = rnd.randint(1, 5)
        seq += n
        t += timedelta(microseconds=rnd.randint(12, 60))
        emit('I', 'ring_consumer.cc:158', f'consumed {n} frames last_seq={seq}')
        t += timedelta(microseconds=rnd.randint(3, 12))
        continue
    emit('I', 'ring_consumer.cc:141', 'ring empty, usleep(1000)')
    t += timedelta(microseconds=1000 + max(0, rnd.gauss(22, 5)) + rnd.uniform(2, 6))
print('\n'.join(lines))
