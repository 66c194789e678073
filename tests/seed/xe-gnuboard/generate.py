#!/usr/bin/env python3
"""Write access.log: ten minutes of the access log of an nginx caching proxy (proxy_cache) in
front of an XpressEngine (XE 1.x) community site on PHP-FPM, with a custom log_format:

    log_format cache '$remote_addr - $remote_user [$time_local] "$request" $status '
                     '$body_bytes_sent "$http_referer" "$http_user_agent" '
                     '$request_time $upstream_response_time $upstream_cache_status '
                     '"$sent_http_set_cookie"';

XE calls session_start() on every request in its bootstrap. A visitor without a session cookie
(first-time visitors, every crawler) therefore gets `Set-Cookie: PHPSESSID=...; path=/` on every
page, and nginx's proxy_cache does not store a response that carries Set-Cookie: every
anonymous page view is a MISS and costs the backend's full render time (about 180-250 ms).
Static files carry no cookie and are cache HITs answered in well under a millisecond. A browser
sends the PHPSESSID cookie back from its second page on, and members always do; nginx's
`proxy_cache_bypass $cookie_PHPSESSID` sends those requests past the cache (BYPASS, no new
Set-Cookie). Crawlers never send a cookie back, so every page they fetch is a MISS with a fresh
PHPSESSID. POSTs are never cached (no cache status, "-").

Standard library only; fixed seed, so the output is the same on every run.
"""

import datetime as dt
import math
import os
import random
import sys

SEED = 20261202
# The output folder: the first argument, else this folder.
OUT_DIR = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(OUT_DIR, "access.log")
KST = dt.timezone(dt.timedelta(hours=9))
START = dt.datetime(2026, 12, 2, 20, 41, 0, tzinfo=KST).timestamp()
SECONDS = 600.0

rng = random.Random(SEED)

BROWSERS = [
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
    "Mozilla/5.0 (Linux; Android 14; SM-S921N) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/26.0 Chrome/122.0.0.0 Mobile Safari/537.36",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15",
    "Mozilla/5.0 (Linux; Android 13; SM-A536N) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36",
]
BOTS = [
    ("Mozilla/5.0 (compatible; Yeti/1.1; +https://naver.me/spd)", "110.93.150."),
    ("Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", "66.249.66."),
    ("Mozilla/5.0 (compatible; Daum/4.1; +https://cs.daum.net/faq/15/4118.html?faqId=28966)", "203.133.168."),
    ("Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)", "40.77.167."),
]
BOARDS = ["freeboard", "notice", "qna", "gallery", "market"]
STATIC_FIRST_VISIT = [
    ("/common/js/jquery.min.js", 31840), ("/common/js/xe.min.js", 18502),
    ("/common/css/xe.min.css", 4117), ("/layouts/xedition/css/layout.min.css", 22391),
    ("/layouts/xedition/js/layout.min.js", 6930), ("/modules/board/skins/xedition/board.default.min.css", 9284),
    ("/common/xeicon/xeicon.min.css", 7512), ("/layouts/xedition/fonts/NanumGothic.woff2", 142380),
    ("/favicon.ico", 5430),
]
SITE = "https://bbs.example.com"


def sid():
    # PHP session id: 26 characters, 5 bits each (0-9a-v)
    return "".join(rng.choice("0123456789abcdefghijklmnopqrstuv") for _ in range(26))


def backend_ms():
    """XE rendering a page: bootstrap, session, DB queries, template compile cache."""
    v = 205.0 * math.exp(rng.gauss(0.0, 0.085))
    if rng.random() < 0.015:
        v += rng.uniform(180.0, 700.0)                 # a slow query now and then
    return max(168.0, v)


def doc_srl():
    # popular documents are requested again and again (Zipf-like)
    rank = int(rng.paretovariate(1.15)) - 1
    return 3_180_000 - 7 * min(rank, 5000) - rng.choice([0, 0, 0, 3])


def page_url():
    r = rng.random()
    board = rng.choices(BOARDS, weights=[50, 10, 20, 12, 8])[0]
    if r < 0.08:
        return "/"
    if r < 0.22:
        return "/index.php?mid=%s&page=%d" % (board, min(int(rng.paretovariate(1.3)), 40))
    if r < 0.27:
        return "/%s" % board
    return "/%s/%d" % (board, doc_srl())


def line(t_end, ip, method, url, status, size, ref, ua, rt, urt, ucs, cookie):
    d = dt.datetime.fromtimestamp(math.floor(t_end), KST)
    return (t_end, '%s - - [%s] "%s %s HTTP/%s" %d %d "%s" "%s" %.3f %s %s "%s"' % (
        ip, d.strftime("%d/%b/%Y:%H:%M:%S +0900"), method, url,
        "2.0" if "bot" not in ua.lower() and "Yeti" not in ua else "1.1",
        status, size, ref, ua, rt, urt, ucs, cookie))


def page_view(t, ip, ua, ref, session):
    """A page through the cache. Returns (log entry, Set-Cookie value or None)."""
    url = page_url()
    up = backend_ms() / 1000.0
    send = rng.uniform(0.0, 0.0025) if "Mobile" not in ua else rng.uniform(0.0005, 0.012)
    size = rng.randint(9100, 15800)
    if session is None:
        new = sid()
        return line(t + up + send, ip, "GET", url, 200, size, ref, ua, up + send, "%.3f" % up,
                    "MISS", "PHPSESSID=%s; path=/" % new), new, url
    return line(t + up + send, ip, "GET", url, 200, size, ref, ua, up + send, "%.3f" % up,
                "BYPASS", "-"), session, url


def static_hit(t, ip, ua, ref, path, size):
    if rng.random() < 0.12:                             # revalidation by a returning browser
        return line(t + 0.0002, ip, "GET", path, 304, 0, ref, ua, 0.0, "-", "HIT", "-")
    # from the cache on local disk (page cache): the time is the hand-over to the socket
    rt = 0.0 if size < 40000 else rng.lognormvariate(math.log(0.0008), 0.8)
    if "Mobile" in ua and size > 40000:
        rt = size / rng.uniform(2.0e6, 9.0e6)         # a slower client drains the send buffer
    return line(t + rt, ip, "GET", path, 200, size, ref, ua, rt, "-", "HIT", "-")


def visitor(t_arrive, entries):
    kind = rng.choices(["anon", "member", "bot"], weights=[62, 10, 28])[0]
    if kind == "bot":
        ua, prefix = rng.choice(BOTS)
        ip = prefix + str(rng.randint(2, 250))
        t = t_arrive
        for _ in range(rng.randint(1, 12)):             # crawlers never send the cookie back
            e, _, _ = page_view(t, ip, ua, "-", None)
            entries.append(e)
            t = e[0] + rng.uniform(0.3, 6.0)
        return
    ua = rng.choice(BROWSERS)
    ip = "%d.%d.%d.%d" % (rng.choice([211, 175, 118, 223, 112, 121, 59, 14]), rng.randint(0, 255),
                          rng.randint(0, 255), rng.randint(1, 254))
    session = sid() if kind == "member" else None
    ref = rng.choice(["-", "https://search.naver.com/search.naver", "https://www.google.com/",
                      "https://m.search.daum.net/search"])
    t = t_arrive
    first = True
    for _ in range(rng.randint(1, 6)):
        e, cookie, url = page_view(t, ip, ua, ref, session)
        entries.append(e)
        session = cookie          # the browser sends PHPSESSID back from now on: BYPASS
        t_page = e[0]
        page_ref = SITE + url
        if first:
            for path, size in STATIC_FIRST_VISIT:
                t_page += rng.uniform(0.004, 0.03)
                entries.append(static_hit(t_page, ip, ua, page_ref, path, size))
            first = False
        for _ in range(rng.randint(0, 4)):              # the document's attached images
            t_page += rng.uniform(0.01, 0.08)
            path = "/files/attach/images/%d/%03d/%03d/%s.jpg" % (
                rng.choice([118, 152, 207]), rng.randint(0, 999), rng.randint(0, 999),
                "".join(rng.choice("0123456789abcdef") for _ in range(32)))
            entries.append(static_hit(t_page, ip, ua, page_ref, path, rng.randint(38000, 420000)))
        if kind == "member" and rng.random() < 0.15:    # a comment
            up = backend_ms() / 1000.0 + rng.uniform(0.02, 0.09)
            t_post = t_page + rng.uniform(8.0, 40.0)
            entries.append(line(t_post + up, ip, "POST", "/index.php", 200, rng.randint(180, 600),
                                page_ref, ua, up + 0.001, "%.3f" % up, "-", "-"))
        t = t_page + rng.uniform(4.0, 45.0)
        ref = page_ref


def main():
    entries = []
    t = START
    while t < START + SECONDS:
        visitor(t, entries)
        t += rng.expovariate(1.0 / 1.1)
    entries = [e for e in entries if e[0] < START + SECONDS + 60.0]
    entries.sort(key=lambda x: x[0])
    with open(OUT, "w", encoding="utf-8") as f:
        for _, text in entries:
            f.write(text + "\n")
    miss = sum(1 for _, s in entries if '" MISS "' in s or ' MISS "' in s)
    hit = sum(1 for _, s in entries if ' HIT "' in s)
    print("access.log: %d lines, %d MISS, %d HIT" % (len(entries), miss, hit), file=sys.stderr)


if __name__ == "__main__":
    main()
