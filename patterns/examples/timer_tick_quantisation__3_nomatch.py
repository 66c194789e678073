EXPECT = "no-match"
DESCRIPTION = "a replication-lag waiter that sleeps 10 ms (usleep(10000)) between checks: a lattice of 10.1 ms, the program's own sleep on a high-resolution timer, not kernel ticks"
import random
from datetime import datetime, timedelta, timezone

rnd = random.Random(1010)
t = datetime(2026, 11, 29, 12, 5, 0, 31000, tzinfo=timezone.utc)
lines = []

def emit(msg):
    lines.append(f'{t.strftime("%Y-%m-%dT%H:%M:%S.%fZ")} level=debug worker=lagwait {msg}')

emit('msg="waiting for replica" replica=db2 target_pos=mysql-bin.004211:88123311 sleep_us=10000')
for i in range(64):
    n = rnd.choices([1, 2, 3, 4], [40, 30, 20, 10])[0]
    # usleep(10000): 10 ms + 50 us timer slack + wake-up, plus the SHOW SLAVE STATUS round trip
    d = sum(10.0 + rnd.uniform(0.055, 0.09) for _ in range(n)) + rnd.uniform(0.25, 0.45)
    t += timedelta(milliseconds=d)
    emit(f'msg="replica still behind, sleeping" replica=db2 checks={n} lag_events={rnd.randint(3, 400)} sleep_us=10000')
t += timedelta(milliseconds=10.4)
emit('msg="replica caught up" replica=db2 waited_checks=147')
print('\n'.join(lines))
