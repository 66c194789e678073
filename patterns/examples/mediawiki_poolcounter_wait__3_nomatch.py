#!/usr/bin/env python3
"""MediaWiki 1.39 debug log (Monolog, WMF line format) while the PoolCounter daemon's host is down
and drops the SYNs to port 7531, 2026-12-02 22:10 UTC.

$wgPoolCountClientConf = [ 'servers' => [ '10.64.0.179' ], 'timeout' => 0.5 ];

Mechanism and the reason for every interval:

* A view that must parse asks PoolCounter for the ArticleView key. The client's connection
  manager opens the daemon's socket with fsockopen(…, 0.5): with no answer to the SYN the connect
  gives up after 0.5 s (+0.1-1 ms), "Connection timed out".
* PoolCounterWork::execute() treats a broken pool counter as "no limit": it logs
  "Pool key '…' (ArticleView): Error connecting to pool counter server: Connection timed out" and
  parses anyway (0.3-2.5 s), without waiting for anybody.
* So every such view has a 0.5 s gap next to the poolcounter channel, but nothing is queued.
"""

import math
import random
import time

rng = random.Random(2210)
T0 = 1796249400.0          # 2026-12-02 22:10:00 UTC
TITLES = ["Berlin", "Hamburg", "Elbe", "Rhein", "Bodensee", "Zugspitze", "Goethe", "Bach", "Nordsee"]

lines = []


def stamp(t):
    return time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(t)) + ".%06d" % int((t % 1) * 1e6)


t = T0 + 0.4
while t < T0 + 75.0:
    rid = "".join(rng.choice("0123456789abcdef") for _ in range(24))
    host = "mw%d" % rng.randint(1401, 1406)
    title = rng.choice(TITLES)
    page = 5000 + TITLES.index(title) * 137
    rt = [t]

    def log(chan, level, msg):
        lines.append((rt[0], "%s [%s] %s mywiki 1.39.10 %s %s: %s" % (stamp(rt[0]), rid, host, chan, level, msg)))

    log("wfDebug", "DEBUG", "Start request GET /wiki/%s" % title)
    rt[0] += rng.uniform(0.004, 0.012)
    if rng.random() < 0.6:
        rt[0] += 0.5 + rng.uniform(0.0001, 0.001)
        log("poolcounter", "DEBUG", "Pool key 'mywiki:pcache:idhash:%d-0!canonical:revid:%d' (ArticleView): "
            "Error connecting to pool counter server: Connection timed out" % (page, 900000 + page * 3))
        rt[0] += min(2.5, 0.8 * math.exp(rng.gauss(0.0, 0.5)))
        log("ParserCache", "DEBUG", "Saved in parser cache")
    else:
        log("PoolWorkArticleView", "DEBUG", "parser cache hit")
    rt[0] += rng.uniform(0.02, 0.08)
    log("wfDebug", "DEBUG", "Request ended normally")
    t += rng.expovariate(1.0 / 0.9)

lines.sort(key=lambda x: x[0])
for _, text in lines:
    print(text)
