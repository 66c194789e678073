#!/usr/bin/env python3
"""HAProxy's default httplog (raw, `log stdout format raw`): the server line of backend app has
maxconn reached, so two of every three of 60 requests wait for a free slot in the backend queue
(Tw 5-400 ms, as long as the requests ahead of them take, backend_queue up to 9), while the
server itself answers each in 8-40 ms (Tr). The waits spread over a range: no timer's fixed value."""
import random


def lines(queue):
    out = []
    t = 0.0
    for i in range(60):
        t += random.uniform(0.02, 0.06)                  # the next request arrives
        tw = int(random.uniform(5, 400)) if (queue and i % 3 != 0) else 0   # waited for a slot
        tr = random.randint(8, 40) if queue else int(random.uniform(20, 600))  # the server's answer
        ta = tw + tr + random.randint(0, 1)
        s = int(t)
        ms = int((t - s) * 1000)
        bq = min(tw // 40, 9) if queue else 0           # requests ahead in the backend queue
        rid = '7f3a%012x' % random.getrandbits(48)
        out.append(f'10.0.1.{2 + i % 7}:{41000 + i} [07/Dec/2026:14:02:{10 + s:02d}.{ms:03d}] www app/web1 '
                   f'0/{tw}/0/{tr}/{ta} 200 4120 - - ---- 12/12/11/1/0 0/{bq} {{{rid}}} "GET /api/cart/{1000 + i} HTTP/1.1"')
    return out


def both():
    """Both examples come from one generator run, the match first."""
    random.seed(12)
    return lines(True), lines(False)


if __name__ == '__main__':
    print('\n'.join(both()[0]))
