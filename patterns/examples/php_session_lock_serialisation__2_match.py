#!/usr/bin/env python3
"""Monolog log (LineFormatter, UidProcessor, Monolog ErrorHandler for PHP warnings) of an
in-house PHP dashboard after its sessions moved to memcached (session.save_handler = memcached,
php-memcached 3.2 defaults), 2026-12-02 14:00 CET.

Mechanism and the reason for every interval:

* Opening the dashboard fires six widget requests at once (fetch() in parallel, HTTP/2), all with
  the user's PHPSESSID. Every widget script calls session_start() first and never
  session_write_close(), so the session stays locked until the script ends.
* php-memcached locks a session with `add lock.<sid>`; when the key exists it sleeps
  memcached.sess_lock_wait_min = 150 ms (doubling up to sess_lock_wait_max, also 150 ms, so a
  constant 150 ms) and tries again, at most memcached.sess_lock_retries = 5 times. A waiting
  request therefore gets the lock only at one of its own wake-ups: 150.3, 300.6, 451.0, 601.3 ms
  after its first attempt (each step = the 150 ms usleep + ~0.1 ms of timer slack and wake-up +
  ~0.2 ms for the add round trip to memcached on the LAN), i.e. at the first wake-up after the
  holder's script ended (holders take 95-260 ms: the widget's SQL queries and JSON encoding).
* A request whose six attempts all find the lock held gives up after 5 sleeps, ~752 ms:
  PHP warns "session_start(): Unable to clear session lock record" and "Failed to read session
  data: memcached (path: …)", Monolog's ErrorHandler logs both, and the widget answers 401.
* The gap before "session opened" is the lock wait; gaps between SQL lines are the queries
  (2-30 ms).
"""

import math
import random
import time

rng = random.Random(9150)
T0 = 1796216400.0          # 2026-12-02 13:00:00 UTC = 14:00 CET
STEP = 0.1503              # 150 ms usleep + slack + add() round trip
WIDGETS = [("orders", 0.095), ("revenue", 0.180), ("tickets", 0.120), ("stock", 0.260),
           ("shipments", 0.140), ("news", 0.100)]
IPS = ["10.20.4.17", "10.20.4.33", "10.20.5.8", "10.20.6.121", "10.20.4.90", "10.20.7.14", "10.20.5.61"]

lines = []


def stamp(t):
    lt = t + 3600
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(lt)) + ".%06d+01:00" % int((lt % 1) * 1e6)


def hexs(n):
    return "".join(rng.choice("0123456789abcdef") for _ in range(n))


def emit(t, chan, msg, ctx, u):
    lines.append((t, "[%s] %s: %s %s {\"uid\":\"%s\"}" % (stamp(t), chan, msg, ctx, u)))


t_page = T0 + 1.2
for visit in range(len(IPS)):
    ip = IPS[visit]
    sid = "".join(rng.choice("0123456789abcdefghijklmnopqrstuv") for _ in range(26))
    user_id = rng.randint(1200, 1900)
    order = WIDGETS[:]
    rng.shuffle(order)
    lock_free_at = 0.0
    for name, work in order:
        u = hexs(7)
        t = t_page + rng.uniform(0.0, 0.003)
        emit(t, "app.DEBUG", "GET /api/widgets/%s.php" % name, '{"ip":"%s"}' % ip, u)
        t += rng.uniform(0.0002, 0.0006)
        start = t
        # add lock.<sid>, sleep 150 ms while it is held, at most 5 retries
        k = 0
        while t < lock_free_at and k < 5:
            k += 1
            t = start + k * STEP + rng.uniform(-0.0002, 0.0002)
        if t < lock_free_at:
            t += 0.0004
            emit(t, "php.WARNING", "E_WARNING: session_start(): Unable to clear session lock record",
                 '{"code":2,"message":"session_start(): Unable to clear session lock record",'
                 '"file":"/srv/dashboard/lib/bootstrap.php","line":27}', u)
            t += 0.0001
            emit(t, "php.WARNING", "E_WARNING: session_start(): Failed to read session data: memcached (path: 10.20.1.5:11211)",
                 '{"code":2,"message":"session_start(): Failed to read session data: memcached (path: 10.20.1.5:11211)",'
                 '"file":"/srv/dashboard/lib/bootstrap.php","line":27}', u)
            t += 0.0003
            emit(t, "app.NOTICE", "no user in session, answering 401", '{"widget":"%s"}' % name, u)
            continue
        t += rng.uniform(0.0002, 0.0004)
        emit(t, "app.DEBUG", "session opened", '{"handler":"memcached","sid":"%s","user":%d}' % (sid, user_id), u)
        end = t + work * math.exp(rng.gauss(0.0, 0.05))
        q = rng.randint(3, 5)
        for i in range(q):
            t += (end - t) / (q - i) * rng.uniform(0.7, 1.0)
            emit(t, "db.DEBUG", "query ok",
                 '{"sql":"SELECT ... FROM %s_view WHERE owner_id = ? LIMIT 20","rows":%d}' % (name, rng.randint(0, 20)), u)
        t = end
        emit(t, "app.INFO", "response 200", '{"widget":"%s","bytes":%d}' % (name, rng.randint(900, 6400)), u)
        lock_free_at = t + 0.0006   # script ends: session written, lock.<sid> deleted
    t_page += rng.uniform(14.0, 33.0)

lines.sort(key=lambda x: x[0])
for _, text in lines:
    print(text)
