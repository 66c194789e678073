#!/usr/bin/env python3
"""varnishncsa log of the same Varnish 7 / PHP news site after the fix (sessions are started only
for logins and comment forms), two and a half minutes from 2026-12-02 11:40 UTC.

varnishncsa -F '%h %l %u %t "%r" %s %b "%{Referer}i" "%{User-agent}i" %D %{Varnish:handling}x "%{Set-Cookie}o"'

What it shows and why each value is what it is:

* Anonymous GETs no longer get Set-Cookie, so pages and static files are cache hits: %D 30-900 us
  (memory storage; a page object of 40-60 KB is handed to the socket in a few hundred us, a large
  image to a mobile client takes up to ~2 ms). Pages whose TTL ran out are refetched (miss) at the
  PHP render time now and then; that is a normal cold miss, a few per minute.
* Readers who log in or write a comment send a POST, which the built-in vcl_recv passes (`pass`):
  PHP handles it in ~95 ms (log-normal, sigma 3 %: password_verify() with cost 10 ~55 ms, or the
  comment insert and cache purge, plus the session write) and answers with a regenerated session id
  (session_regenerate_id(true) after login; the comment form keeps its session): Set-Cookie
  PHPSESSID at backend latency, but on writes that a cache is never meant to answer.
* %t is the time Varnish received the request, whole seconds.
"""

import math
import random
import time

rng = random.Random(777)
T0 = 1796210400.0          # 2026-12-02 11:40:00 UTC
SECONDS = 150.0
MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
UAS = [
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0",
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36",
    "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)",
]
SECTIONS = ["politik", "wirtschaft", "sport", "kultur", "region"]


def clf(t):
    g = time.gmtime(math.floor(t))
    return "%02d/%s/%04d:%02d:%02d:%02d +0000" % (g.tm_mday, MONTHS[g.tm_mon - 1], g.tm_year,
                                                  g.tm_hour, g.tm_min, g.tm_sec)


def sid():
    return "".join(rng.choice("0123456789abcdefghijklmnopqrstuv") for _ in range(26))


entries = []


def log(t, method, url, status, size, ref, ua, dur_us, handling, cookie):
    entries.append((t + dur_us / 1e6, '%d.%d.%d.%d - - [%s] "%s %s HTTP/1.1" %d %d "%s" "%s" %d %s "%s"' % (
        rng.choice([84, 91, 178, 217, 46]), rng.randint(0, 255), rng.randint(0, 255),
        rng.randint(1, 254), clf(t), method, url, status, size, ref, ua, dur_us, handling, cookie)))


t = T0
while t < T0 + SECONDS:
    ua = rng.choice(UAS)
    r = rng.random()
    if r < 0.30:
        # a login or a comment: POST through to PHP, session id regenerated
        url = rng.choice(["/konto/anmelden", "/kommentar/speichern"])
        ms = 95.0 * math.exp(rng.gauss(0.0, 0.03)) + rng.uniform(0.1, 0.5)
        log(t, "POST", url, 303, 0, "https://www.example-zeitung.de/", ua, int(ms * 1000), "pass",
            "PHPSESSID=%s; path=/; secure; HttpOnly; SameSite=Lax" % sid())
    elif r < 0.36:
        # TTL ran out: one cold miss at the render time, no cookie
        ms = 142.0 * math.exp(rng.gauss(0.0, 0.05))
        log(t, "GET", "/%s/%d-stadtrat" % (rng.choice(SECTIONS), rng.randint(47000, 48210)), 200,
            rng.randint(38000, 61000), "-", ua, int(ms * 1000), "miss", "-")
    else:
        url = rng.choice(["/", "/%s/" % rng.choice(SECTIONS),
                          "/%s/%d-derby" % (rng.choice(SECTIONS), 48210 - int(rng.paretovariate(1.2)) * 3),
                          "/static/css/site.min.css", "/static/js/site.min.js"])
        log(t, "GET", url, 200, rng.randint(4000, 61000), "-", ua, rng.randint(30, 900), "hit", "-")
    t += rng.expovariate(1.0 / 0.55)

entries.sort(key=lambda e: e[0])
for _, text in entries:
    print(text)
