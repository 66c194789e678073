#!/usr/bin/env python3
"""Symfony 6.4 application log (Monolog LineFormatter, UidProcessor) of a photo library: each
album page makes the browser fetch its six thumbnails at once over HTTP/2 from a PHP
controller behind the firewall, 2026-12-02 10:20 CET.

Mechanism and the reason for every interval:

* session.save_handler = files: PHP's files handler opens sess_<id> and takes flock(LOCK_EX)
  in session_start(), and keeps it until the session is written and closed. Symfony starts the
  session lazily when the firewall's ContextListener reads the security token ("Read existing
  security token from the session."), and saves it in AbstractSessionListener::onKernelResponse,
  so the lock is held from the token read to the response: here ~34 ms per thumbnail (user
  reload query, then the controller checks the album's ACL and streams a cached JPEG; it logs
  nothing more).
* The six requests of one page carry the same PHPSESSID and arrive within ~0.6 ms (one HTTP/2 connection), so they run one
  after the other: request k waits in session_start() until request k-1 has saved its session.
  The gap between "Authenticator does not support the request." and "Read existing security token
  from the session." is therefore the sum of the hold times of the requests ahead of it: 0, ~34,
  ~68, ... ~170 ms, minus the fraction of a ms by which it arrived later (each hold time log-normal,
  sigma 2 %, around 34 ms).
* All other gaps are the framework's own work: 0.1-2 ms between log lines.
"""

import math
import random
import time

rng = random.Random(61)
T0 = 1796203200.0          # 2026-12-02 09:20:00 UTC = 10:20:00 CET
USERS = ["anna", "jonas", "mehmet", "lea", "pauline", "tobias", "sven", "ines", "karim", "olga", "bernd", "yuki", "dario"]
TOKEN = "Symfony\\\\Component\\\\Security\\\\Core\\\\Authentication\\\\Token\\\\UsernamePasswordToken"
PROVIDER = "Symfony\\\\Bridge\\\\Doctrine\\\\Security\\\\User\\\\EntityUserProvider"
AUTH = "App\\\\Security\\\\LoginFormAuthenticator"

lines = []


def stamp(t):
    lt = t + 3600
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(lt)) + ".%06d+01:00" % int((lt % 1) * 1e6)


def uid():
    return "".join(rng.choice("0123456789abcdef") for _ in range(7))


def emit(t, chan, msg, ctx, u):
    lines.append((t, "[%s] %s: %s %s {\"uid\":\"%s\"}" % (stamp(t), chan, msg, ctx, u)))


t_page = T0 + 0.4
for page in range(len(USERS)):
    user = USERS[page]
    album = rng.randint(310, 480)
    photos = sorted(rng.sample(range(18000, 26000), 6))
    lock_free_at = 0.0
    arrivals = sorted(t_page + rng.uniform(0.0, 0.0006) for _ in photos)
    for pid, t in zip(photos, arrivals):
        u = uid()
        uri = "https://photos.example.org/album/%d/thumb/%d" % (album, pid)
        emit(t, "request.INFO", 'Matched route "album_thumb".',
             '{"route":"album_thumb","route_parameters":{"_route":"album_thumb","album":"%d","photo":"%d"},'
             '"request_uri":"%s","method":"GET"}' % (album, pid, uri), u)
        t += rng.uniform(0.0003, 0.0009)
        emit(t, "security.DEBUG", "Checking for authenticator support.",
             '{"firewall_name":"main","authenticators":1}', u)
        t += rng.uniform(0.0001, 0.0003)
        emit(t, "security.DEBUG", "Authenticator does not support the request.",
             '{"firewall_name":"main","authenticator":"%s"}' % AUTH, u)
        # session_start(): flock(LOCK_EX) on sess_<id> waits for the request ahead
        t = max(t + rng.uniform(0.0002, 0.0005), lock_free_at + rng.uniform(0.00005, 0.00015))
        emit(t, "security.DEBUG", "Read existing security token from the session.",
             '{"key":"_security_main","token_class":"%s"}' % TOKEN, u)
        t += rng.uniform(0.0002, 0.0006)
        emit(t, "security.DEBUG", "User was reloaded from a user provider.",
             '{"provider":"%s","username":"%s"}' % (PROVIDER, user), u)
        # ACL check and streaming until kernel.response saves the session and unlocks it
        hold = 0.034 * math.exp(rng.gauss(0.0, 0.02))
        lock_free_at = t + hold - 0.0035
    t_page += rng.uniform(9.0, 21.0)

lines.sort(key=lambda x: x[0])
for _, text in lines:
    print(text)
