EXPECT = "no-match"
DESCRIPTION = "a job worker polling an empty queue every 200 ms ('no jobs, polling again in 200ms'): the second rung's value, but a fixed poll loop, not a ladder after failures"
import random
from datetime import datetime, timedelta, timezone

rnd = random.Random(2002)
t = datetime(2026, 11, 29, 14, 30, 0, 7000, tzinfo=timezone.utc)
lines = []
for i in range(60):
    if i % 13 == 7:
        n = rnd.randint(1, 4)
        lines.append(f'{t.strftime("%Y-%m-%dT%H:%M:%S.%fZ")} level=info worker=mailer-1 msg="claimed jobs" queue=outbound-mail jobs={n}')
        t += timedelta(milliseconds=rnd.uniform(15, 120))
        continue
    lines.append(f'{t.strftime("%Y-%m-%dT%H:%M:%S.%fZ")} level=debug worker=mailer-1 msg="no jobs, polling again in 200ms" queue=outbound-mail')
    t += timedelta(milliseconds=200 + rnd.uniform(0.6, 1.4))
print('\n'.join(lines))
