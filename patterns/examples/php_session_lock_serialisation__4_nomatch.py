#!/usr/bin/env python3
"""Monolog log of the same PHP dashboard on php-memcached sessions while its session memcached
host (10.20.1.5) is down and its SYNs go unanswered, 2026-12-02 15:10 CET.

Mechanism and the reason for every interval:

* session_start() asks php-memcached to lock the session: `add lock.<sid>` must first connect to
  10.20.1.5:11211. memcached.sess_connect_timeout is 0 (not set), so libmemcached's own connect
  timeout applies: MEMCACHED_DEFAULT_CONNECT_TIMEOUT = 4000 ms. The add fails with
  MEMCACHED_TIMEOUT and PHP warns "session_start(): Failed to write session lock: A TIMEOUT
  OCCURRED" 4.00 s after the request started (poll() returns 0 after 4000 ms, +0.1-1 ms).
* s_lock_session() retries on any result, up to memcached.sess_lock_retries = 5 times, sleeping
  only when the lock is held (NOT STORED), so after a failure it connects again at once; the
  2 s retry_timeout of the failed server has run out by then, so each retry pays another 4 s
  connect timeout: six warnings 4.0 s apart, then "Unable to clear session lock record" and
  "Failed to read session data", and the widget answers 401 after ~24 s.
* session_start is next to every gap, but nothing holds the lock: the gaps are connect timeouts.
"""

import random
import time

rng = random.Random(4000)
T0 = 1796220600.0          # 2026-12-02 14:10:00 UTC = 15:10 CET
WIDGETS = ["orders", "revenue", "tickets", "stock", "shipments", "news"]
IPS = ["10.20.4.17", "10.20.5.8", "10.20.6.121", "10.20.7.14"]

lines = []


def stamp(t):
    lt = t + 3600
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(lt)) + ".%06d+01:00" % int((lt % 1) * 1e6)


def hexs(n):
    return "".join(rng.choice("0123456789abcdef") for _ in range(n))


def warn(t, msg, u):
    lines.append((t, '[%s] php.WARNING: E_WARNING: %s {"code":2,"message":"%s","file":"/srv/dashboard/lib/bootstrap.php","line":27} {"uid":"%s"}'
                  % (stamp(t), msg, msg, u)))


t_page = T0 + 2.0
for ip in IPS:
    for name in WIDGETS:
        u = hexs(7)
        t = t_page + rng.uniform(0.0, 0.003)
        lines.append((t, '[%s] app.DEBUG: GET /api/widgets/%s.php {"ip":"%s"} {"uid":"%s"}' % (stamp(t), name, ip, u)))
        for attempt in range(6):
            t += 4.0 + rng.uniform(0.0001, 0.0011)
            warn(t, "session_start(): Failed to write session lock: A TIMEOUT OCCURRED", u)
        t += 0.00008
        warn(t, "session_start(): Unable to clear session lock record", u)
        t += 0.00004
        warn(t, "session_start(): Failed to read session data: memcached (path: 10.20.1.5:11211)", u)
        t += 0.0003
        lines.append((t, '[%s] app.NOTICE: no user in session, answering 401 {"widget":"%s"} {"uid":"%s"}' % (stamp(t), name, u)))
    t_page += rng.uniform(31.0, 55.0)

lines.sort(key=lambda x: x[0])
for _, text in lines:
    print(text)
