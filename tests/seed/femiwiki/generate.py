#!/usr/bin/env python3
"""Write femiwiki-fastcgi.log: the output of Femiwiki's `fastcgi` container (PHP-FPM running
MediaWiki 1.43.1) during a slow spell of Flow pages, as `journalctl CONTAINER_NAME=fastcgi -o cat`
prints it.

What the container writes (see README.md):
  * MediaWiki's log: Monolog JsonFormatter, one JSON object per line, level >= info only,
    WikiProcessor (host, wiki, mwversion, reqId) and PsrLogMessageProcessor, times in
    Asia/Seoul (+09:00) with microseconds;
  * PHP-FPM's access log in the default format `%R - %u %t "%m %r" %s` (whole seconds, the
    time the request was accepted, written when it ends);
  * PHP messages through the SAPI logger: `NOTICE: PHP message: ...` (no time).

The timing model: every memcached storage command (set/add/cas: a command line followed by a
data block) that MemcachedPhpBagOStuff sends on its per-request TCP connection to
127.0.0.1:11211 waits for memcached's delayed ACK before its last part leaves (Nagle on the
client, TCP_NODELAY is never set by the pure-PHP client), then gets its STORED reply at once.
The delayed-ACK timer is armed when the first part reaches memcached and fires on the kernel's
jiffy grid: HZ=100, TCP_DELACK_MIN = 4 ticks, +1 tick of timer-wheel rounding, so the stall is
50 ms minus the phase of the arming moment inside its 10 ms tick (40-50 ms), and exactly 50 ms
for a write issued right after the previous stall ended (the exchange is then locked onto the
tick grid); now and then one tick more. Single-line commands (get, delete, incr, touch) leave in
one segment and are answered at once. The first commands on a fresh connection are quick-ACKed.

Standard library only; the seed fixes every choice, so the output is the same on every run.
"""

import datetime as dt
import heapq
import json
import math
import os
import random
import string
import sys

SEED = 20261128
# The output folder: the first argument, else this folder.
OUT_DIR = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(OUT_DIR, "femiwiki-fastcgi.log")

KST = dt.timezone(dt.timedelta(hours=9))
START = dt.datetime(2026, 11, 28, 21, 14, 3, 0, tzinfo=KST).timestamp()
RUN_SECONDS = 45.0
WORKERS = 4                      # busy FPM children during the spell (pm = dynamic)

HZ = 100
TICK = 1.0 / HZ                  # 10 ms
DELACK_TICKS = 4                 # TCP_DELACK_MIN = HZ/25
WHEEL_ROUNDING = 1               # timer_list expiry rounded up by one tick (Linux >= 4.8)
P_EXTRA_TICK = 0.02              # the occasional satellite one tick later (60 ms)
QUICKACK_EXCHANGES = 2           # a fresh connection starts in quick-ack mode

HOST = "ip-10-0-1-20"
WIKI = "femiwiki"
MWVERSION = "1.43.1"

rng = random.Random(SEED)
TICK_PHASE = rng.uniform(0.0, TICK)   # where the jiffy boundaries fall on the wall clock


def lognormal(median, sigma, cap=None):
    v = median * math.exp(rng.gauss(0.0, sigma))
    return min(v, cap) if cap else v


def hexid(n):
    return "".join(rng.choice("0123456789abcdef") for _ in range(n))


def flow_uuid():
    # Flow's alphadecimal UUIDs: base-36, 16 characters for current ids
    return "".join(rng.choice(string.digits + string.ascii_lowercase) for _ in range(16))


def stamp(t):
    d = dt.datetime.fromtimestamp(t, KST)
    return d.strftime("%Y-%m-%dT%H:%M:%S.") + "%06d" % d.microsecond + "+09:00"


def mw_line(t, channel, level, message, context, req_id):
    levels = {"INFO": 200, "NOTICE": 250, "WARNING": 300, "ERROR": 400}
    rec = {
        "message": message,
        "context": context if context else {},
        "level": levels[level],
        "level_name": level,
        "channel": channel,
        "datetime": stamp(t),
        "extra": {"host": HOST, "wiki": WIKI, "mwversion": MWVERSION, "reqId": req_id},
    }
    return json.dumps(rec, ensure_ascii=False, separators=(",", ":"))


def fpm_access(t_accept, ip, method, script, status):
    d = dt.datetime.fromtimestamp(math.floor(t_accept), KST)
    return '%s -  %s "%s %s" %d' % (ip, d.strftime("%d/%b/%Y:%H:%M:%S +0900"), method, script, status)


class Conn:
    """MemcachedPhpBagOStuff's connection to 127.0.0.1:11211 for one PHP request."""

    def __init__(self):
        self.exchanges = 0

    def _quick(self):
        self.exchanges += 1
        return self.exchanges <= QUICKACK_EXCHANGES

    def single(self, t):
        """get/delete/touch/incr: one segment out, the answer comes at once."""
        self._quick()
        return t + rng.uniform(0.00005, 0.00018)

    def store(self, t, value_bytes):
        """set/add/cas: the last part is held by Nagle until memcached's delayed ACK."""
        # serialize() and, above 1500 bytes, gzcompress() before the write
        t_send = t + 0.00003 + value_bytes * 1.2e-8 * (3.0 if value_bytes > 1500 else 1.0)
        if self._quick():
            return t_send + rng.uniform(0.00006, 0.00015)
        t_arm = t_send + 0.000012                       # first part reaches memcached (loopback)
        k = math.floor((t_arm - TICK_PHASE) / TICK)       # jiffies when the timer is armed
        fire = TICK_PHASE + (k + DELACK_TICKS + WHEEL_ROUNDING) * TICK
        if rng.random() < P_EXTRA_TICK:
            fire += TICK
        # pure ACK -> held part leaves -> memcached parses it -> STORED -> fgets() returns
        return fire + rng.uniform(0.00005, 0.00012)


CORE_KEYS = [
    "femiwiki:page-restrictions:v1:{p}:{r}",
    "femiwiki:revision-row-1.29:{p}:{r}",
    "femiwiki:page-content-model:{r}",
    "femiwiki:page-lang:{p}",
    "femiwiki:user-quicktouched:id:{u}",
    "femiwiki:pcache:idhash:{p}-0!canonical",
    "femiwiki:linktarget:0:{p}",
]

FLOW_OBJECT_KEYS = [
    "femiwiki:flow_workflow:v2:pk:{id}",
    "femiwiki:flow_revision:v4:rev_id:{rid}",
    "femiwiki:flow_tree:rootpath:{id}",
    "femiwiki:flow_revision:v4:topic_root:{id}",
]
WORKFLOW = "femiwiki:flow_workflow:v2:pk:"
TOPIC_ROOT = "femiwiki:flow_revision:v4:topic_root:"
REVISION = "femiwiki:flow_revision:v4:rev_id:"
ROOTPATH = "femiwiki:flow_tree:rootpath:"
SUMMARY = "femiwiki:flow_revision:v4:summary:"
HEADER = "femiwiki:flow_header:v2:workflow:"

BOARDS = ["토론:대문", "페미위키토론:관리자 요청", "토론:페미위키", "사용자토론:Simsim",
          "페미위키토론:사랑방", "토론:성평등", "틀토론:Welcome"]


class Request:
    def __init__(self, kind, t0, ip):
        self.kind = kind
        self.t = t0
        self.t0 = t0
        self.ip = ip
        self.req_id = hexid(24)
        self.conn = Conn()
        self.lines = []          # (time, text)
        self.since = None        # snapshot time of the DB read the cached values come from
        self.last_write = t0
        self.page = rng.randint(1200, 48000)
        self.rev = rng.randint(90000, 310000)
        self.user = rng.randint(2, 9800)

    def log(self, channel, level, message, context):
        self.lines.append((self.t, mw_line(self.t, channel, level, message, context, self.req_id)))

    def work(self, median, sigma=0.5, cap=0.2):
        self.t += lognormal(median, sigma, cap)

    def gets(self, n):
        for _ in range(n):
            self.t = self.conn.single(self.t) + lognormal(0.00025, 0.4, 0.003)

    def wan_set(self, key, value_bytes):
        """WANObjectCache::set() with lag = false from the replica: it logs the warning, then
        writes through MemcachedPhpBagOStuff."""
        if self.since is None:
            self.since = self.t0 + 0.012
        age = self.t - self.since
        walltime = max(0.0001, self.t - self.last_write)
        self.log("memcached", "WARNING",
                 "Lowered set() TTL for %s due to replication lag." % key,
                 {"cachekey": key, "lag": False, "age": age, "walltime": walltime})
        self.t += rng.uniform(0.00004, 0.00012)           # wrap() + serialize
        self.t = self.conn.store(self.t, value_bytes)
        self.last_write = self.t
        self.t += rng.uniform(0.00005, 0.00025)           # back in the caller

    def silent_set(self, value_bytes):
        """A plain BagOStuff write (parser cache, session store): it stalls as well, unlogged."""
        self.t = self.conn.store(self.t, value_bytes)
        self.t += rng.uniform(0.00005, 0.0002)

    def core_key(self):
        return rng.choice(CORE_KEYS).format(p=self.page, r=self.rev, u=self.user)

    def bootstrap(self):
        self.work(0.016, 0.25)                            # Setup.php, session, config
        self.gets(rng.randint(4, 9))                      # session, messages, user touched

    def dupes(self):
        keys = ["femiwiki:user-quicktouched:id:%d" % self.user,
                "femiwiki:page-restrictions:v1:%d:%d" % (self.page, self.rev),
                "femiwiki:flow_workflow:v2:pk:%s" % flow_uuid(),
                "femiwiki:messages:ko:hash:v1",
                "femiwiki:user-id:%d" % rng.randint(2, 9800)]
        self.work(0.0015, 0.3)                            # post-send deferred updates
        for key in rng.sample(keys, rng.randint(1, 3)):
            count = rng.randint(2, 6)
            self.log("memcached", "WARNING", 'Duplicate get(): "%s" fetched %d times' % (key, count),
                     {"key": key, "count": count})
            self.t += rng.uniform(0.00002, 0.00009)

    def flow_batch(self, prefix, n, query_median=0.004, value_bytes=(600, 9000)):
        """Flow's FeatureIndex::findMulti(): one DB query for every key the cache missed, then
        cacheResults() writes the rows back in a loop, one WANObjectCache::set() per row."""
        self.work(query_median, 0.6, 0.045)               # the SELECT, row mapping
        for _ in range(n):
            self.work(0.00018, 0.5, 0.002)                # build the cache key, compact the row
            self.wan_set(prefix + flow_uuid(), rng.randint(*value_bytes))

    def run(self):
        getattr(self, "run_" + self.kind)()
        return self

    # --- request kinds -------------------------------------------------------------------

    def finish(self, method, script, status=200, dupes=True, session_write=False):
        if session_write:
            self.silent_set(rng.randint(300, 900))
        self.work(0.004, 0.4)
        end = self.t
        if dupes and rng.random() < 0.6:
            self.dupes()
        self.lines.append((max(end, self.t) + 0.0002,
                           fpm_access(self.t0, self.ip, method, script, status)))

    def run_page(self):
        self.bootstrap()
        for _ in range(rng.choice([0, 1, 1, 2, 3])):
            self.work(0.003, 0.6, 0.03)
            self.wan_set(self.core_key(), rng.randint(200, 2500))
        self.work(lognormal(0.09, 0.7, 0.6), 0.1)        # parse (parser cache cold after the restart)
        self.silent_set(rng.randint(8000, 40000))          # ParserCache::save()
        self.finish("GET", "/index.php", session_write=rng.random() < 0.3)

    def run_load(self):                                   # load.php (ResourceLoader)
        self.work(0.008, 0.3)
        self.gets(rng.randint(2, 5))
        if rng.random() < 0.3:
            self.work(0.002, 0.5)
            self.wan_set("femiwiki:resourceloader-filter:minify-js:7:%s" % hexid(32),
                         rng.randint(1000, 30000))
        self.finish("GET", "/load.php", dupes=False)

    def run_board(self):
        self.bootstrap()
        self.work(0.004, 0.4)
        self.wan_set(self.core_key(), rng.randint(200, 2500))
        self.flow_batch(WORKFLOW, 1, 0.006, (300, 600))   # the board's workflow
        self.flow_batch(HEADER, 1, 0.003, (500, 4000))    # its header revision
        k = rng.randint(10, 20)                           # the first page of topics
        self.flow_batch(WORKFLOW, k, 0.008, (300, 600))
        self.flow_batch(TOPIC_ROOT, k, 0.005, (800, 3000))
        self.flow_batch(ROOTPATH, k, 0.003, (100, 300))
        self.flow_batch(REVISION, rng.randint(k, 3 * k), 0.009, (1200, 9000))  # replies shown
        if rng.random() < 0.5:
            self.flow_batch(SUMMARY, rng.randint(1, 4), 0.004, (400, 2000))
        self.work(0.06, 0.5, 0.3)                         # render the board
        self.finish("GET", "/index.php", session_write=rng.random() < 0.5)

    def run_topic(self):
        self.bootstrap()
        self.work(0.004, 0.4)
        self.flow_batch(WORKFLOW, 1, 0.004, (300, 600))   # the topic's workflow
        self.flow_batch(TOPIC_ROOT, 1, 0.003, (800, 3000))
        n = rng.randint(3, 14)                            # its posts
        self.flow_batch(ROOTPATH, n, 0.004, (100, 300))
        self.flow_batch(REVISION, n, 0.006, (1200, 9000))
        self.work(0.03, 0.5, 0.2)
        self.finish("GET", "/index.php", session_write=rng.random() < 0.5)

    def run_flow_api(self):                               # api.php?action=flow&submodule=view-topiclist
        self.bootstrap()
        k = rng.randint(5, 10)                            # vtllimit topics
        self.flow_batch(WORKFLOW, k, 0.006, (300, 600))
        self.flow_batch(TOPIC_ROOT, k, 0.004, (800, 3000))
        self.flow_batch(REVISION, rng.randint(k, 2 * k), 0.006, (1200, 9000))
        self.work(0.015, 0.4)
        self.finish("GET", "/api.php")

    def run_flow_reply(self):                             # api.php?action=flow&submodule=reply
        self.bootstrap()
        self.work(0.01, 0.4)
        # inside the write transaction: WANObjectCache refuses to cache uncommitted rows
        for _ in range(rng.randint(2, 5)):
            self.work(0.002, 0.5)
            key = rng.choice(FLOW_OBJECT_KEYS).format(id=flow_uuid(), rid=flow_uuid())
            self.log("memcached", "INFO", "Rejected set() for %s due to pending writes." % key,
                     {"cachekey": key})
        self.work(0.012, 0.4)                             # COMMIT, then the deferred updates
        self.flow_batch(REVISION, rng.randint(1, 2), 0.002, (1200, 9000))
        self.flow_batch(ROOTPATH, 1, 0.002, (100, 300))
        self.flow_batch(WORKFLOW, 1, 0.002, (300, 600))
        self.finish("POST", "/api.php", session_write=True)

    def run_login(self):                                  # Special:UserLogin, POST
        self.bootstrap()
        self.work(0.06, 0.3)                              # password hash check
        name = rng.choice(["Simsim", "Nyx", "Puzzlet Chung"])
        self.log("authentication", "INFO", "Login for %s succeeded from %s" % (name, self.ip),
                 {"user": name, "clientip": self.ip})
        self.work(0.003, 0.4)
        self.wan_set("femiwiki:user-quicktouched:id:%d" % self.user, 40)
        self.finish("POST", "/index.php", session_write=True)

    def run_refused(self):                                # memcached still restarting
        self.work(0.006, 0.2)
        self.log("memcached", "ERROR", "Memcached error: Error connecting to 127.0.0.1:11211: Connection refused", {})
        self.work(0.2, 0.3)                               # everything from the DB, no cache at all
        self.finish("GET", "/index.php", dupes=False)


KINDS = ["page", "load", "board", "topic", "flow_api", "flow_reply", "login"]
WEIGHTS = [30, 16, 14, 20, 10, 7, 3]
IPS = ["203.0.113.%d" % i for i in (7, 23, 41, 58, 90, 112)] + \
      ["198.51.100.%d" % i for i in (4, 17, 66)] + ["192.0.2.%d" % i for i in (31, 200)]

PHP_NOTICES = [
    'NOTICE: PHP message: PHP Warning:  Undefined array key "title" in /srv/femiwiki.com/extensions/FemiwikiSkin/includes/SkinFemiwiki.php on line 311',
    'NOTICE: PHP message: PHP Warning:  Undefined array key 1 in /srv/femiwiki.com/extensions/Sanctions/includes/Hooks.php on line 128',
]


def main():
    requests = []
    # worker clock: each FPM child takes the next request when it is free
    free = [(START + rng.uniform(0.0, 0.4), w) for w in range(WORKERS)]
    heapq.heapify(free)
    first = True
    while True:
        t, w = heapq.heappop(free)
        if t > START + RUN_SECONDS:
            break
        kind = "refused" if first else rng.choices(KINDS, weights=WEIGHTS)[0]
        first = False
        req = Request(kind, t, rng.choice(IPS)).run()
        requests.append(req)
        idle = rng.expovariate(1.0 / 1.8)                 # the next request arrives
        heapq.heappush(free, (req.lines[-1][0] + idle, w))

    lines = [ln for r in requests for ln in r.lines]
    # a PHP warning now and then, printed by the SAPI logger without a time
    for r in rng.sample(requests, 3):
        lines.append((r.lines[0][0] - 0.00001, rng.choice(PHP_NOTICES)))
    lines.sort(key=lambda x: x[0])
    with open(OUT, "w", encoding="utf-8") as f:
        for _, text in lines:
            f.write(text + "\n")
    kinds = {}
    for r in requests:
        kinds[r.kind] = kinds.get(r.kind, 0) + 1
    print("%s: %d lines, %d requests %s" % (os.path.basename(OUT), len(lines), len(requests),
                                            dict(sorted(kinds.items()))), file=sys.stderr)


if __name__ == "__main__":
    main()
