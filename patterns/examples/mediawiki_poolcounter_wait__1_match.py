#!/usr/bin/env python3
"""MediaWiki 1.39 debug log (Monolog, WMF line format; channels wfDebug, poolcounter, dirty,
PoolWorkArticleView, ParserCache, slow-parse) of a wiki during a live sports event, 2026-12-02
19:00 UTC: a heavily read article is edited every few minutes, and each edit makes its parse
(large Lua tables and navboxes) take ~20 s.

$wgPoolCounterConf['ArticleView'] = [ 'class' => 'PoolCounter_Client', 'timeout' => 15,
    'workers' => 2, 'maxqueue' => 100 ];   (no fastStale)

Mechanism and the reason for every interval:

* After an edit the page's parser cache entry is outdated, so every view goes through
  PoolWorkArticleView: `ACQ4ANY <key> 2 100 15` to poolcounterd. The first two readers get LOCKED
  and parse (~19.5-20.5 s, then "Saved in parser cache", RELEASE). Everyone else waits in the
  daemon's queue for the key.
* poolcounterd answers a waiter DONE the moment a worker sends RELEASE (all ACQ4ANY waiters
  are woken together), so readers that arrived later than (parse - 15 s) wait until the release
  and get the new output from the parser cache ("parser cache hit"): their waits are whatever
  the parse had left.
* A waiter whose own 15 s timeout (libevent timer, whole seconds, fires ~1 ms late) runs out
  first gets TIMEOUT: the readers that arrived in the parse's first ~5 s wait exactly 15.00 s,
  then PoolWorkArticleView::fallback() serves the previous revision's output ("dirty output").
* Readers arrive at ~1.1 per second (only the article page is in this log); the daemon is on
  the LAN (~0.3 ms per command).
"""

import random
import time

rng = random.Random(1900)
T0 = 1796238000.0          # 2026-12-02 19:00:00 UTC
PAGE_ID = 81234
TITLE = "Weltmeisterschaft_2026"

lines = []


def stamp(t):
    return time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(t)) + ".%06d" % int((t % 1) * 1e6)


class Req:
    def __init__(self, t):
        self.t = t
        self.id = "".join(rng.choice("0123456789abcdef") for _ in range(24))
        self.host = "mw%d" % rng.randint(1401, 1406)

    def log(self, chan, level, msg):
        lines.append((self.t, "%s [%s] %s mywiki 1.39.10 %s %s: %s" % (
            stamp(self.t), self.id, self.host, chan, level, msg)))

    def step(self, lo, hi):
        self.t += rng.uniform(lo, hi)


for edit, t_edit in enumerate([T0 + 12.0, T0 + 187.0, T0 + 371.0]):
    rev = 1049211 + 17 * edit
    key = "mywiki:pcache:idhash:%d-0!canonical:revid:%d" % (PAGE_ID, rev)
    parse = [rng.uniform(19.5, 20.5) for _ in range(2)]
    arrivals = []
    t = t_edit + rng.uniform(0.2, 1.0)
    while t < t_edit + max(parse) + 1.0:
        arrivals.append(t)
        t += rng.expovariate(1.1)
    releases = []
    for i, a in enumerate(arrivals):
        r = Req(a)
        r.log("wfDebug", "DEBUG", "Start request GET /wiki/%s" % TITLE)
        r.step(0.004, 0.012)
        if releases and r.t > min(releases):
            r.log("PoolWorkArticleView", "DEBUG", "parser cache hit")
            r.step(0.02, 0.06)
            r.log("wfDebug", "DEBUG", "Request ended normally")
            continue
        r.log("poolcounter", "DEBUG", "Sending pool counter command: ACQ4ANY %s 2 100 15" % key)
        if i < 2:                                    # two workers may parse at once
            r.step(0.0002, 0.0004)
            r.log("poolcounter", "DEBUG", "Got pool counter response: LOCKED")
            r.t += parse[i]
            r.log("slow-parse", "INFO", "%.2f %s" % (parse[i], TITLE))
            r.step(0.002, 0.006)
            r.log("ParserCache", "DEBUG", "Saved in parser cache")
            r.step(0.0003, 0.0008)
            r.log("poolcounter", "DEBUG", "Sending pool counter command: RELEASE")
            releases.append(r.t)
            r.step(0.0002, 0.0004)
            r.log("poolcounter", "DEBUG", "Got pool counter response: RELEASED")
            r.step(0.03, 0.09)
            r.log("wfDebug", "DEBUG", "Request ended normally")
            continue
        first_release = arrivals[0] + 0.0045 + parse[0] if parse[0] < parse[1] else arrivals[1] + 0.0045 + parse[1]
        deadline = r.t + 15.0 + rng.uniform(0.0006, 0.0016)
        if deadline < first_release:
            r.t = deadline
            r.log("poolcounter", "DEBUG", "Got pool counter response: TIMEOUT")
            r.step(0.0008, 0.002)
            r.log("dirty", "INFO", "dirty output")
        else:
            r.t = first_release + rng.uniform(0.0009, 0.0015) + 0.0003
            r.log("poolcounter", "DEBUG", "Got pool counter response: DONE")
            r.step(0.0004, 0.0012)
            r.log("PoolWorkArticleView", "DEBUG", "parser cache hit")
        r.step(0.02, 0.06)
        r.log("wfDebug", "DEBUG", "Request ended normally")

lines.sort(key=lambda x: x[0])
for _, text in lines:
    print(text)
