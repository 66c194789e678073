#!/usr/bin/env python3
"""Symfony 6.4 application log (Monolog LineFormatter, UidProcessor) of the same photo library, a
version that counts thumbnail views: each thumbnail request runs
`SELECT views FROM album_stats WHERE album_id = ? FOR UPDATE` and updates the counter in one
transaction, 2026-12-02 10:20 CET. The session is opened read-only (read_and_close), so the
session takes no lock.

Mechanism and the reason for every interval:

* The six requests of one page arrive within ~0.6 ms (one HTTP/2 connection) and all lock the same album_stats row: InnoDB
  grants the row lock to one transaction at a time, so request k waits in the SELECT … FOR UPDATE
  until the transactions ahead of it have committed: 0, ~34, ~68 … ~170 ms (each transaction holds
  the row for ~34 ms, log-normal sigma 2 %: the counter update is followed by the ACL check and the
  thumbnail lookup inside the same transaction before it commits).
* The staircase has the same values as the session-lock example, but the lines are a row lock
  (FOR UPDATE before the gap, the UPDATE after it), and nothing in them is about the session.
* All other gaps are the framework's own work: 0.1-2 ms between log lines.
"""

import math
import random
import time

rng = random.Random(62)
T0 = 1796203200.0          # 2026-12-02 09:20:00 UTC = 10:20:00 CET
USERS = ["anna", "jonas", "mehmet", "lea", "pauline", "tobias", "sven", "ines"]
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
        t += rng.uniform(0.0002, 0.0005)
        emit(t, "security.DEBUG", "Read existing security token from the session.",
             '{"key":"_security_main","token_class":"%s"}' % TOKEN, u)
        t += rng.uniform(0.0002, 0.0006)
        emit(t, "security.DEBUG", "User was reloaded from a user provider.",
             '{"provider":"%s","username":"%s"}' % (PROVIDER, user), u)
        t += rng.uniform(0.0002, 0.0005)
        emit(t, "doctrine.DEBUG", 'Executing statement: SELECT views FROM album_stats WHERE album_id = ? FOR UPDATE '
             '(parameters: {params}, types: {types})',
             '{"sql":"SELECT views FROM album_stats WHERE album_id = ? FOR UPDATE","params":{"1":%d},"types":{"1":1}}'
             % album, u)
        # InnoDB row lock: waits for the transactions ahead of it to commit
        t = max(t + rng.uniform(0.0002, 0.0005), lock_free_at + rng.uniform(0.00005, 0.00015))
        emit(t, "doctrine.DEBUG", 'Executing statement: UPDATE album_stats SET views = views + 1 WHERE album_id = ? '
             '(parameters: {params}, types: {types})',
             '{"sql":"UPDATE album_stats SET views = views + 1 WHERE album_id = ?","params":{"1":%d},"types":{"1":1}}'
             % album, u)
        t += rng.uniform(0.0005, 0.0012)
        emit(t, "app.DEBUG", "Serving thumbnail from cache.",
             '{"album":%d,"photo":%d,"size":"320x240","path":"/srv/photos/var/thumbs/%d/%d_320.jpg"}'
             % (album, pid, album, pid), u)
        # ACL check and thumbnail lookup, then COMMIT releases the row lock
        hold = 0.034 * math.exp(rng.gauss(0.0, 0.02))
        lock_free_at = t + hold - 0.0035
    t_page += rng.uniform(9.0, 21.0)

lines.sort(key=lambda x: x[0])
for _, text in lines:
    print(text)
