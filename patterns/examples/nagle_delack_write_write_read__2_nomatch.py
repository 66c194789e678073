#!/usr/bin/env python3
"""Near miss: a MediaWiki 1.39 edit request (MonologSpi LineFormatter) on MemcachedPeclBagOStuff with
the default allow_tcp_nagle_delay = true (TCP_NODELAY off). Its background cache writes (set,
delete, add, incrWithInit) are noreply commands, so memcached (CONFIG_HZ=250) has nothing to
piggy-back its ACK on and arms its delayed-ACK timer; the get that follows 0.03-0.3 ms later is
held by Nagle until the timer fires, 11 ticks (44 ms) after the start of the tick in which the
write arrived (once 12 ticks). The stalls end on ticks and the next write follows 0.3-2 ms later,
so the gaps from the get to the next line are 41-44.5 ms (46.2 ms for the 12-tick one). The same 44
ms as a request sent in two writes, but each stall follows a memcached write that is never answered
and a get: the noreply pipeline, not write-write-read. 14 write/get pairs."""
import math
import random
from datetime import datetime, timedelta, timezone

random.seed(102)
T0 = datetime(2026, 11, 29, 11, 30, 0, tzinfo=timezone.utc)
TICK, OFFSET, HZ_TICKS = 4.0, 1.18, 11      # memcached host: HZ=250, TCP_DELACK_MIN + 1 tick
SATELLITE = 3                                # the pair whose ACK fired one tick later
PAGE = 6200
rid = '%024x' % random.getrandbits(96)
out = []
ms = 0.0


def line(chan, msg):
    out.append(f'{(T0 + timedelta(milliseconds=ms)).strftime("%Y-%m-%d %H:%M:%S.%f")} [{rid}] appserver1 mywiki 1.39.10 {chan} DEBUG: {msg}')


def delack_fires(arrival, extra_tick=False):
    j = math.floor((arrival - OFFSET) / TICK)
    return OFFSET + (j + HZ_TICKS + (1 if extra_tick else 0)) * TICK + random.uniform(0.003, 0.02)


WRITES = [('set', 'page-touched', 'revision-text'), ('delete', 'pcache:idoptions', 'messages:en'),
          ('set', 'revision-row', 'categorymembers'), ('incrWithInit', 'stats:edits', 'user-quicktouched:id'),
          ('set', 'page-restrictions', 'page-lang'), ('add', 'lock:edit', 'page-props'),
          ('delete', 'linktarget', 'lag-times')]

line('wfDebug', 'Start request POST /w/api.php?action=edit&format=json')
ms += random.uniform(0.2, 0.5)
line('DBQuery', f'MediaWiki\\Revision\\RevisionStore::fetchRevisionRowFromConds [0.001s] db1: SELECT rev_id,rev_page FROM revision WHERE rev_page = {PAGE} LIMIT 1')
ms += random.uniform(1.5, 3.5)
for i in range(14):
    op, wkey, rkey = WRITES[i % len(WRITES)]
    page = PAGE + i
    line('memcached', f'MemcachedPeclBagOStuff debug: {op}(mywiki:{wkey}:{page})')
    arrival = ms + random.uniform(0.02, 0.05)       # the noreply write reaches memcached
    ms += random.uniform(0.03, 0.3)
    line('memcached', f'MemcachedPeclBagOStuff debug: get(mywiki:{rkey}:{page})')
    ms = delack_fires(arrival, i == SATELLITE) + random.uniform(0.05, 0.1)   # ACK, get, reply
    kind = i % 3
    if kind == 0:
        ms += random.uniform(0.05, 0.15)
        line('memcached', 'MemcachedPeclBagOStuff debug: result: NOT FOUND')
    elif kind == 1:
        ms += random.uniform(0.4, 1.0)                # hit; then a page query
        line('DBQuery', f'MediaWiki\\Page\\PageStore::getPageByNameViaLinkCache [0.001s] db1: SELECT page_id,page_len FROM page WHERE page_id = {page} LIMIT 1')
    else:
        ms += random.uniform(0.5, 1.5)                # miss; the value is recomputed
        line('memcached', f'fetchOrRegenerate(mywiki:{rkey}:{page}): miss, new value computed')
    ms += random.uniform(0.1, 0.6) if random.random() < 0.8 else random.uniform(1.0, 2.0)
line('wfDebug', 'Request ended normally')
print('\n'.join(out))
