#!/usr/bin/env python3
"""MediaWiki 1.39 debug log (Monolog, WMF line format, channels memcached / MessageCache /
DBQuery / wfDebug at debug level) of two app servers right after a maintenance restart of
memcached and php-fpm, 2026-12-02 06:30 UTC: the message cache is empty everywhere.

Mechanism and the reason for every interval:

* MessageCache::load('en') finds the local (APCu) cache empty, then the cluster cache
  (mywiki:messages:en) empty. The first request takes the main lock with a non-blocking
  BagOStuff::lock() (add mywiki:messages:en:lock) and rebuilds the cache from the database
  (loadFromDB: the MediaWiki-namespace pages and their text, ~640 ms here), then sets
  mywiki:messages:en and deletes the lock key.
* Every request that arrives meanwhile fails the non-blocking add ("could not acquire main
  lock"), then calls the blocking getReentrantScopedLock() (lock timeout MessageCache::WAIT_SEC =
  15 s). MediumSpecificBagOStuff::doLock() runs a WaitConditionLoop around add(<key>:lock): after
  each failed add it sleeps 10 ms more than the time before (usleep 10, 20, 30 … ms, capped at
  1 s), so the gaps between "result: NOT STORED" and the next add are 10.08, 20.08, 30.08 … ms
  (the usleep plus ~0.08 ms of timer slack and wake-up) and the add's round trip to memcached is
  0.12-0.3 ms. The waiter gets the lock at its first wake-up after the holder deleted the key (at
  most one step, up to 110 ms, later), releases it at once (the ScopedLock is discarded), reads
  mywiki:messages:en and logs "waiting for other thread to complete, got from global cache".
* Requests after the rebuild find the cluster cache and do not wait.
* Other gaps: a few tenths of a ms between debug lines; the holder's queries 3-60 ms each.
"""

import random
import time

rng = random.Random(6303)
T0 = 1796193000.0          # 2026-12-02 06:30:00 UTC
LOAD = 0.640               # the holder's loadFromDB + saveToCaches
PAGES = ["Main_Page", "Special:RecentChanges", "Hilfe:Bearbeiten", "Spezial:Suche", "Berlin",
         "Portal:Geschichte", "Datei:Karte.svg", "Diskussion:Berlin", "Liste_der_Baudenkmale",
         "Vorlage:Infobox_Ort", "Hamburg", "Spezial:Beobachtungsliste", "Elbe", "Kategorie:Stadt"]

lines = []


def stamp(t):
    return time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(t)) + ".%06d" % int((t % 1) * 1e6)


class Req:
    def __init__(self, host, t, url):
        self.host, self.t = host, t
        self.id = "".join(rng.choice("0123456789abcdef") for _ in range(24))
        self.log("wfDebug", "Start request GET %s" % url)

    def log(self, chan, msg):
        lines.append((self.t, "%s [%s] %s mywiki 1.39.10 %s DEBUG: %s" % (
            stamp(self.t), self.id, self.host, chan, msg)))

    def mc(self, op, result=None):
        self.t += rng.uniform(0.00004, 0.00015)
        self.log("memcached", "MemcachedPeclBagOStuff debug: %s" % op)
        if result:
            self.t += rng.uniform(0.00012, 0.0003)       # round trip to memcached
            self.log("memcached", "MemcachedPeclBagOStuff debug: result: %s" % result)
        else:
            self.t += rng.uniform(0.00012, 0.0003)

    def cold_start(self):
        self.mc("get(WANCache:mywiki:messages:en:hash:v1|#|v)", "NOT FOUND")
        self.mc("get(mywiki:messages:en)", "NOT FOUND")
        self.mc("get(mywiki:messages:en:status)", "NOT FOUND")

    def finish(self, where):
        self.t += rng.uniform(0.0002, 0.0006)
        self.log("MessageCache", "MessageCache::loadUnguarded: Loading en... " + where)
        self.t += rng.uniform(0.004, 0.03)           # the rest of the page view
        self.log("wfDebug", "Request ended normally")


# the holder: first request after the restart
h = Req("appserver1", T0 + 0.0008, "/wiki/Main_Page")
h.cold_start()
h.mc("add(mywiki:messages:en:lock)")
t_end = h.t + LOAD
for q in ["SELECT page_title,page_latest FROM page WHERE page_is_redirect = 0 AND page_namespace = 8 AND (page_title NOT LIKE '%/%' ESCAPE '`') AND (page_len > 10000)",
          "SELECT /*! STRAIGHT_JOIN */ rev_id,rev_page,rev_actor,actor_rev_user.actor_user AS rev_user,actor_rev_user.actor_name AS rev_user_text,rev_timestamp,rev_minor_edit,rev_deleted,rev_len,rev_parent_id,rev_sha1,comment_rev_comment.comment_text AS rev_comment_text,page_namespace,page_title,page_id,page_latest,page_is_redirect,page_len FROM page JOIN revision ON ((page_id = rev_page)) WHERE page_is_redirect = 0 AND page_namespace = 8 AND (page_title NOT LIKE '%/%' ESCAPE '`') AND (page_len <= 10000) AND (page_latest = rev_id)",
          "SELECT slot_revision_id,slot_content_id,slot_origin,slot_role_id,content_size,content_sha1,content_address,content_model FROM slots JOIN content ON ((slot_content_id = content_id)) WHERE slot_revision_id IN (…1412 ids…)",
          "SELECT old_id,old_text,old_flags FROM text WHERE old_id IN (…1412 ids…)"]:
    h.t += (t_end - h.t) * rng.uniform(0.15, 0.35)
    h.log("DBQuery", "MessageCache::loadFromDB(en) [%.3fs] db1: %s" % (rng.uniform(0.004, 0.06), q))
h.t = t_end - 0.0012
h.mc("set(mywiki:messages:en)")
h.mc("set(WANCache:mywiki:messages:en:hash:v1|#|v)")
h.mc("delete(mywiki:messages:en:lock)")
released = h.t
h.finish("local cache is empty, global cache is empty, loading from DB")

# requests that arrive while the holder rebuilds: 13 waiters on two app servers
arrivals = sorted(rng.uniform(0.004, LOAD - 0.012) for _ in range(13))
for a in arrivals:
    r = Req(rng.choice(["appserver1", "appserver2"]), T0 + a, "/wiki/%s" % rng.choice(PAGES))
    r.cold_start()
    r.mc("add(mywiki:messages:en:lock)", "NOT STORED")      # non-blocking main lock
    sleep = 0.0
    while True:                                               # blocking getReentrantScopedLock
        if r.t >= released:
            r.mc("add(mywiki:messages:en:lock)")
            break
        r.mc("add(mywiki:messages:en:lock)", "NOT STORED")
        sleep = min(sleep + 0.010, 1.0)
        r.t += sleep + rng.uniform(0.00006, 0.00011)          # usleep + timer slack and wake-up
    r.mc("delete(mywiki:messages:en:lock)")
    r.mc("get(mywiki:messages:en)")
    r.finish("local cache is empty, global cache is empty, loading from DB, could not acquire main lock, "
             "waiting for other thread to complete, got from global cache")

# after the rebuild: the cluster cache is there
t = T0 + LOAD + 0.02
for _ in range(4):
    r = Req(rng.choice(["appserver1", "appserver2"]), t, "/wiki/%s" % rng.choice(PAGES))
    r.mc("get(WANCache:mywiki:messages:en:hash:v1|#|v)")
    r.mc("get(mywiki:messages:en)")
    r.finish("local cache is empty, got from global cache")
    t += rng.uniform(0.03, 0.12)

lines.sort(key=lambda x: x[0])
for _, text in lines:
    print(text)
