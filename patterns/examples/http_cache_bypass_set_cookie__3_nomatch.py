#!/usr/bin/env python3
"""JSON access log of an nginx proxy_cache in front of a product-search backend (Java, no
sessions), two minutes from 2026-12-02 13:05 UTC.

log_format json escape=json '{"time":"$time_iso8601","remote_addr":"$remote_addr",'
    '"request":"$request","status":$status,"body_bytes_sent":$body_bytes_sent,'
    '"request_time":$request_time,"upstream_response_time":"$upstream_response_time",'
    '"upstream_cache_status":"$upstream_cache_status","set_cookie":"$sent_http_set_cookie"}';

What it shows and why each value is what it is:

* Search result pages are cached for 60 s (proxy_cache_valid 200 60s) under their full query
  string. Shoppers type free-text queries, so almost every key is new: MISS, and the time is the
  search backend's, log-normal around 310 ms (sigma 3.5 %: an Elasticsearch query plus facet
  aggregation and rendering), $request_time adding 0-2 ms of transfer to the client.
* The backend sets no cookie at all (`"set_cookie":""`): the misses are cold keys, not responses
  made uncacheable by a session.
* The few repeated queries (top searches) are HITs in 0-1 ms; static files are not in this log
  (served by a CDN).
* $time_iso8601 is the time the line was written, whole seconds.
"""

import math
import random
import time

rng = random.Random(4242)
T0 = 1796216700.0          # 2026-12-02 13:05:00 UTC
SECONDS = 120.0
WORDS = ["winterjacke", "laufschuhe", "thermoskanne", "akkuschrauber", "kinderhelm", "rucksack",
         "kaffeemuehle", "stirnlampe", "regenhose", "schneeketten", "handschuhe", "wanderstock"]
TOP = ["winterjacke", "laufschuhe", "schneeketten"]

entries = []
t = T0
while t < T0 + SECONDS:
    ip = "%d.%d.%d.%d" % (rng.choice([84, 91, 178, 217, 46]), rng.randint(0, 255),
                          rng.randint(0, 255), rng.randint(1, 254))
    if rng.random() < 0.12:
        q = "/suche?q=%s" % rng.choice(TOP)
        rt, urt, status = rng.choice([0.0, 0.0, 0.001]), "-", "HIT"
    else:
        q = "/suche?q=%s+%s&seite=%d" % (rng.choice(WORDS), rng.choice(WORDS + ["herren", "damen", "xl", "blau"]),
                                          rng.randint(1, 4))
        up = 0.310 * math.exp(rng.gauss(0.0, 0.035))
        rt, urt, status = up + rng.uniform(0.0, 0.002), "%.3f" % up, "MISS"
    t_end = t + rt
    stamp = time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime(math.floor(t_end)))
    entries.append((t_end, '{"time":"%s","remote_addr":"%s","request":"GET %s HTTP/2.0","status":200,'
                           '"body_bytes_sent":%d,"request_time":%.3f,"upstream_response_time":"%s",'
                           '"upstream_cache_status":"%s","set_cookie":""}' % (
                               stamp, ip, q, rng.randint(21000, 48000), rt, urt, status)))
    t += rng.expovariate(1.0 / 0.45)

entries.sort(key=lambda e: e[0])
for _, text in entries:
    print(text)
