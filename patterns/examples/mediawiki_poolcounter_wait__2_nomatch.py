#!/usr/bin/env python3
"""MediaWiki 1.39 debug log (Monolog, WMF line format) of the same wiki on an ordinary evening,
2026-12-02 20:30 UTC: PoolCounter is configured for ArticleView (timeout 15, workers 2,
maxqueue 100), but no page is read by several people while it is being parsed.

Mechanism and the reason for every interval:

* A view whose parser cache entry is missing or outdated sends `ACQ4ANY <key> 2 100 15`; the key
  is free, so poolcounterd answers LOCKED at once (~0.3 ms round trip). The request parses
  (0.3-2.5 s, log-normal: templates, Lua, links), saves to the parser cache and RELEASEs.
* Views of pages whose output is cached ("parser cache hit") do not use PoolCounter.
* Many requests overlap in time, so a RELEASE often falls inside other requests' long parses,
  but no request waits for another: nobody is answered DONE or TIMEOUT.
"""

import math
import random
import time

rng = random.Random(2030)
T0 = 1796243400.0          # 2026-12-02 20:30:00 UTC
TITLES = ["Berlin", "Hamburg", "Elbe", "Rhein", "Bodensee", "Zugspitze", "Liste_der_Staedte",
          "Goethe", "Schiller", "Bach", "Beethoven", "Brandenburger_Tor", "Koelner_Dom", "Nordsee"]

lines = []


def stamp(t):
    return time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(t)) + ".%06d" % int((t % 1) * 1e6)


t = T0 + 0.5
while t < T0 + 55.0:
    rid = "".join(rng.choice("0123456789abcdef") for _ in range(24))
    host = "mw%d" % rng.randint(1401, 1406)
    title = rng.choice(TITLES)
    page = 5000 + TITLES.index(title) * 137
    rt = [t]

    def log(chan, level, msg):
        lines.append((rt[0], "%s [%s] %s mywiki 1.39.10 %s %s: %s" % (stamp(rt[0]), rid, host, chan, level, msg)))

    log("wfDebug", "DEBUG", "Start request GET /wiki/%s" % title)
    rt[0] += rng.uniform(0.004, 0.012)
    if rng.random() < 0.55:
        log("poolcounter", "DEBUG", "Sending pool counter command: ACQ4ANY mywiki:pcache:idhash:%d-0!canonical:revid:%d 2 100 15"
            % (page, 900000 + page * 3))
        rt[0] += rng.uniform(0.0002, 0.0004)
        log("poolcounter", "DEBUG", "Got pool counter response: LOCKED")
        rt[0] += min(2.5, 0.8 * math.exp(rng.gauss(0.0, 0.5)))
        log("ParserCache", "DEBUG", "Saved in parser cache")
        rt[0] += rng.uniform(0.0003, 0.0008)
        log("poolcounter", "DEBUG", "Sending pool counter command: RELEASE")
        rt[0] += rng.uniform(0.0002, 0.0004)
        log("poolcounter", "DEBUG", "Got pool counter response: RELEASED")
    else:
        log("PoolWorkArticleView", "DEBUG", "parser cache hit")
    rt[0] += rng.uniform(0.02, 0.08)
    log("wfDebug", "DEBUG", "Request ended normally")
    t += rng.expovariate(1.0 / 0.75)

lines.sort(key=lambda x: x[0])
for _, text in lines:
    print(text)
