#!/usr/bin/env python3
"""MediaWiki 1.43 log in Monolog's JsonFormatter (one JSON object per line, WikiProcessor extra)
of a wiki that uses CACHE_MEMCACHED (MemcachedPhpBagOStuff, the pure-PHP MemcachedClient) for
the message cache, with the memcached and MessageCache channels at debug while an admin
investigates slow first page views after each memcached restart, 2026-12-02 23:40 KST.

Mechanism and the reason for every interval:

* $wgUseLocalMessageCache is off, so every request reads the message cache from memcached.
  After the restart the key femiwiki:messages:ko is gone: the first request takes the lock with a
  non-blocking add of femiwiki:messages:ko:lock and rebuilds the cache from the database
  (~470 ms), the others find the lock key and wait in BagOStuff::lock() (MessageCache::WAIT_SEC
  = 15 s).
* The pure-PHP client logs every command with the server's reply, `add <key> (NOT_STORED)`, when
  the reply arrives (0.15-0.35 ms round trip on the host's loopback-connected memcached).
  MediumSpecificBagOStuff::doLock() retries the add in a WaitConditionLoop that sleeps 10 ms more
  after each failure (10, 20, 30 … ms): consecutive add lines of one waiter are therefore
  10.3, 20.3, 30.3 … ms apart (the usleep, ~0.08 ms of timer slack and wake-up, and the next
  add's round trip). The first add after the holder's delete is STORED; the waiter releases the
  lock at once and reads the rebuilt cache.
* The restart happened twice in the hour (a memcached upgrade, then a config change), so the log
  holds two such bursts.
"""

import json
import random
import time

rng = random.Random(2143)
KST = 9 * 3600
PAGES = ["대문", "특수:최근바뀜", "서울", "파일:지도.svg", "틀:정보상자", "도움말:편집", "한강", "부산"]

lines = []


def rid():
    return "".join(rng.choice("0123456789abcdef") for _ in range(24))


def emit(t, chan, level, msg, req):
    lt = t + KST
    dt = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(lt)) + ".%06d+09:00" % int((lt % 1) * 1e6)
    lines.append((t, json.dumps({
        "message": msg, "context": {}, "level": {"DEBUG": 100, "INFO": 200}[level], "level_name": level,
        "channel": chan, "datetime": dt,
        "extra": {"host": "ip-10-0-1-20", "wiki": "femiwiki", "mwversion": "1.43.1", "reqId": req}},
        ensure_ascii=False, separators=(",", ":"))))


def mc(state, text):
    state[0] += rng.uniform(0.00015, 0.00035)            # round trip, logged when the reply arrives
    emit(state[0], "memcached", "DEBUG", text, state[1])


def burst(t0, load, n_waiters):
    req = rid()
    s = [t0, req]
    emit(s[0], "MessageCache", "DEBUG", "MessageCache::load: loading ko", req)
    mc(s, "get(femiwiki:messages:ko)")
    mc(s, "add femiwiki:messages:ko:lock (STORED)")
    released = s[0] + load
    s[0] = released - 0.0009
    mc(s, "set femiwiki:messages:ko (STORED)")
    mc(s, "MemCache: delete femiwiki:messages:ko:lock (DELETED)")
    s[0] += 0.0003
    emit(s[0], "MessageCache", "DEBUG", "MessageCache::loadUnguarded: Loading ko... local cache is empty, "
         "global cache is empty, loading from DB", req)
    for a in sorted(rng.uniform(0.003, load - 0.01) for _ in range(n_waiters)):
        req = rid()
        s = [t0 + a, req]
        emit(s[0], "MessageCache", "DEBUG", "MessageCache::load: loading ko", req)
        mc(s, "get(femiwiki:messages:ko)")
        mc(s, "add femiwiki:messages:ko:lock (NOT_STORED)")        # non-blocking main lock
        sleep = 0.0
        while True:
            if s[0] >= released:
                mc(s, "add femiwiki:messages:ko:lock (STORED)")
                break
            mc(s, "add femiwiki:messages:ko:lock (NOT_STORED)")
            sleep = min(sleep + 0.010, 1.0)
            s[0] += sleep + rng.uniform(0.00006, 0.00011)
        mc(s, "MemCache: delete femiwiki:messages:ko:lock (DELETED)")
        mc(s, "get(femiwiki:messages:ko)")
        mc(s, "MemCache: got femiwiki:messages:ko")
        s[0] += 0.0002
        emit(s[0], "MessageCache", "DEBUG", "MessageCache::loadUnguarded: Loading ko... local cache is empty, "
             "global cache is empty, loading from DB, could not acquire main lock, waiting for other thread to "
             "complete, got from global cache", req)


burst(1796222400.0 + 3.1, 0.470, 9)          # 2026-12-02 14:40:03 UTC = 23:40 KST
burst(1796224800.0 + 41.7, 0.455, 9)         # 15:20:41 UTC, after the config change

lines.sort(key=lambda x: x[0])
for _, text in lines:
    print(text)
