#!/usr/bin/env python3
"""varnishncsa log of a Varnish 7 cache in front of a PHP news site whose bootstrap calls
session_start() on every request (two and a half minutes from 2026-12-02 09:14 UTC).

varnishncsa -F '%h %l %u %t "%r" %s %b "%{Referer}i" "%{User-agent}i" %D %{Varnish:handling}x "%{Set-Cookie}o"'

Mechanism and the reason for every interval:

* The site starts a PHP session for every visitor, so PHP (files handler, php.ini-production:
  session.sid_length = 26, session.sid_bits_per_character = 5) answers every client that sends
  no cookie with `Set-Cookie: PHPSESSID=<26 chars of 0-9a-v>; path=/`.
* Varnish's built-in vcl_backend_response (vcl_beresp_cookie) makes a response with Set-Cookie
  uncacheable: it stores a hit-for-miss object for 120 s, and every later request for the URL is
  a miss that goes to the backend.  Crawlers (bingbot, Googlebot, AhrefsBot, here 55 % of the page
  views) never send the cookie back, so each of their pages is a `miss` carrying a fresh
  PHPSESSID.  A browser's first page is the same; from its second page on it sends
  `Cookie: PHPSESSID=...`, and the built-in vcl_recv passes requests with a Cookie header
  (`pass`, no new Set-Cookie).
* %D, the time Varnish spent on the request, is therefore the backend's render time for every
  page: the PHP page cost on this host is log-normal with sigma 3.5 % around 142 ms for an
  article, 188 ms for a section front and 231 ms for the home page (bootstrap, session, about
  20 SQL queries, template), plus 0.1-0.6 ms for Varnish's fetch and the hand-over to the client.
  2 % of renders hit a slow query (+150-600 ms).
* Static files (CSS, JS, fonts, images) carry no Set-Cookie and are cache hits: %D 40-400 us
  (memory storage; larger images up to ~2 ms while the client drains the send buffer).
* %t is the time Varnish received the request, whole seconds; lines are written when the
  response is done, so they are logged in end order and a few stamps step back by a second.
"""

import math
import random

rng = random.Random(20261202)
T0 = 1796202840.0          # 2026-12-02 09:14:00 UTC
SECONDS = 150.0

BOTS = [
    ("Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)", "40.77.167."),
    ("Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", "66.249.66."),
    ("Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)", "54.36.148."),
]
BROWSERS = [
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0",
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36",
]
SECTIONS = ["politik", "wirtschaft", "sport", "kultur", "region"]
STATIC = [("/static/css/site.min.css", 18214), ("/static/js/site.min.js", 40977),
          ("/static/fonts/source-sans-3.woff2", 61340), ("/favicon.ico", 4286)]
MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]


def clf(t):
    import time
    g = time.gmtime(math.floor(t))
    return "%02d/%s/%04d:%02d:%02d:%02d +0000" % (g.tm_mday, MONTHS[g.tm_mon - 1], g.tm_year,
                                                  g.tm_hour, g.tm_min, g.tm_sec)


def sid():
    return "".join(rng.choice("0123456789abcdefghijklmnopqrstuv") for _ in range(26))


def page():
    r = rng.random()
    if r < 0.12:
        return "/", 231.0
    if r < 0.32:
        return "/%s/" % rng.choice(SECTIONS), 188.0
    # popular articles are fetched again and again
    n = 48210 - int(rng.paretovariate(1.2)) * 3
    return "/%s/%d-%s" % (rng.choice(SECTIONS), n, rng.choice(
        ["haushalt", "stadtrat", "derby", "premiere", "baustelle", "wahl", "messe"])), 142.0


def render_us(base_ms):
    v = base_ms * math.exp(rng.gauss(0.0, 0.035))
    if rng.random() < 0.02:
        v += rng.uniform(150.0, 600.0)
    return int((v + rng.uniform(0.1, 0.6)) * 1000)


entries = []


def log(t_start, dur_us, ip, url, status, size, ref, ua, handling, cookie):
    t_end = t_start + dur_us / 1e6
    entries.append((t_end, '%s - - [%s] "GET %s HTTP/1.1" %d %d "%s" "%s" %d %s "%s"' % (
        ip, clf(t_start), url, status, size, ref, ua, dur_us, handling, cookie)))
    return t_end


def bot(t):
    ua, prefix = rng.choice(BOTS)
    ip = prefix + str(rng.randint(2, 250))
    for _ in range(rng.randint(2, 7)):
        url, base = page()
        t = log(t, render_us(base), ip, url, 200, rng.randint(38000, 61000), "-", ua, "miss",
                "PHPSESSID=%s; path=/" % sid()) + rng.uniform(0.8, 5.0)


def browser(t):
    ua = rng.choice(BROWSERS)
    ip = "%d.%d.%d.%d" % (rng.choice([84, 91, 178, 217, 46]), rng.randint(0, 255),
                          rng.randint(0, 255), rng.randint(1, 254))
    ref = rng.choice(["-", "https://www.google.com/", "https://news.google.com/"])
    first = True
    for _ in range(rng.randint(1, 3)):
        url, base = page()
        if first:
            t_end = log(t, render_us(base), ip, url, 200, rng.randint(38000, 61000), ref, ua,
                        "miss", "PHPSESSID=%s; path=/" % sid())
            for path, size in STATIC:
                t_end += rng.uniform(0.003, 0.02)
                log(t_end, rng.randint(40, 400) if size < 50000 else rng.randint(300, 2100),
                    ip, path, 200, size, "https://www.example-zeitung.de" + url, ua, "hit", "-")
            first = False
        else:
            # the browser now sends Cookie: PHPSESSID=...; the built-in vcl_recv passes it
            t_end = log(t, render_us(base), ip, url, 200, rng.randint(38000, 61000), ref, ua,
                        "pass", "-")
        for _ in range(rng.randint(0, 2)):
            t_end += rng.uniform(0.01, 0.06)
            log(t_end, rng.randint(300, 1900), ip, "/media/%d/%s.jpg" % (
                rng.randint(2024, 2026), "".join(rng.choice("0123456789abcdef") for _ in range(12))),
                200, rng.randint(52000, 240000), "https://www.example-zeitung.de" + url, ua, "hit", "-")
        ref = "https://www.example-zeitung.de" + url
        t = t_end + rng.uniform(6.0, 40.0)


t = T0
while t < T0 + SECONDS:
    if rng.random() < 0.5:
        bot(t)
    else:
        browser(t)
    t += rng.expovariate(1.0 / 2.6)

entries = [e for e in entries if e[0] < T0 + SECONDS + 20]
entries.sort(key=lambda e: e[0])
for _, text in entries:
    print(text)
