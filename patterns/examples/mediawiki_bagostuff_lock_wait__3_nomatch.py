#!/usr/bin/env python3
"""MediaWiki 1.39 debug log (Monolog, WMF line format, channels memcached / DBReplication /
wfDebug) of a secondary data centre's app server, 2026-12-02 08:05 UTC: users who just saved an
edit in the primary DC are sent here for their next page view.

Mechanism and the reason for every interval:

* An edit in the primary DC stores the user's replication positions under the
  ChronologyProtector key global:Wikimedia\\Rdbms\\ChronologyProtector:<clientId>:v2 and sets
  the cpPosIndex cookie. On the next request the secondary DC's ChronologyProtector::lazyStartup()
  waits, in a WaitConditionLoop (POSITION_INDEX_WAIT_TIMEOUT = 5 s), until the positions key with
  that write index has been replicated to the local stash: it get()s the key, and while it is
  not there sleeps 10, 20, 30 … ms (10 ms more each time) and reads it again.
* The key arrives 40-180 ms after the edit (cross-DC stash replication), so each waiting request
  shows get/NOT FOUND pairs 10.1, 20.1, 30.1 … ms apart, then the read that finds it and
  "expected and found position index".
* The same WaitConditionLoop schedule as a lock wait, but the loop polls for replicated data with
  get(); nothing is locked, no add() of a `:lock` key is made.
"""

import random
import time

rng = random.Random(805)
T0 = 1796198700.0          # 2026-12-02 08:05:00 UTC
PAGES = ["Berlin", "Hamburg", "Elbe", "Main_Page", "Portal:Geschichte", "Liste_der_Baudenkmale"]

lines = []


def stamp(t):
    return time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(t)) + ".%06d" % int((t % 1) * 1e6)


t_req = T0 + 0.3
for n in range(20):
    req = "".join(rng.choice("0123456789abcdef") for _ in range(24))
    client = "".join(rng.choice("0123456789abcdef") for _ in range(32))
    key = "global:Wikimedia\\Rdbms\\ChronologyProtector:%s:v2" % client
    t = t_req

    def log(chan, msg):
        lines.append((t, "%s [%s] appserver-codfw-%d mywiki 1.39.10 %s DEBUG: %s" % (
            stamp(t), req, 3 + n % 2, chan, msg)))

    log("wfDebug", "Start request GET /wiki/%s" % rng.choice(PAGES))
    t += rng.uniform(0.0008, 0.002)
    log("DBReplication", "Wikimedia\\Rdbms\\ChronologyProtector::lazyStartup: client ID is %s; key is %s" % (client, key))
    arrive = t + rng.uniform(0.040, 0.180)
    sleep = 0.0
    while True:
        t += rng.uniform(0.00004, 0.00012)
        log("memcached", "MemcachedPeclBagOStuff debug: get(%s)" % key)
        t += rng.uniform(0.00012, 0.0003)
        if t >= arrive:
            break
        log("memcached", "MemcachedPeclBagOStuff debug: result: NOT FOUND")
        sleep += 0.010
        t += sleep + rng.uniform(0.00006, 0.00011)
    waited = (t - t_req) * 1000
    t += 0.0002
    log("DBReplication", "Wikimedia\\Rdbms\\ChronologyProtector::lazyStartup: expected and found position index %d." % rng.randint(2, 9))
    t += rng.uniform(0.005, 0.03)
    log("wfDebug", "Request ended normally")
    t_req += rng.uniform(1.5, 9.0)

lines.sort(key=lambda x: x[0])
for _, text in lines:
    print(text)
