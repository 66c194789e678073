#!/usr/bin/env python3
"""MediaWiki 1.39 edit request (MonologSpi LineFormatter, channels wfDebug, DBQuery, memcached) on
MemcachedPeclBagOStuff with the default allow_tcp_nagle_delay = true, so TCP_NODELAY is off.
Background cache writes (set, delete, add, incrWithInit) go out as noreply commands: memcached
never answers them, so it has nothing to piggy-back its ACK on and arms its delayed-ACK timer when
the write arrives. The next command, a get 0.03-0.3 ms later, is held by Nagle until that ACK. This
memcached host runs CONFIG_HZ=100: TCP_DELACK_MIN is 4 ticks of 10 ms, and the timer wheel adds
one, so the timer fires 5 ticks (50 ms) after the start of the tick in which it was armed, once 6
ticks (60 ms). Each stall ends on a tick and the next write follows 0.3-2 ms later, so the logged
gaps from the get to the next line are 48.4-50.4 ms (58.8 ms for the 6-tick one; 43.3 ms for the
first, armed at a random phase after the opening query): the stall less the time since the last
tick, plus what the line after it waited for (a reply, 0.1-0.25 ms; a database query, 0.4-1 ms; a
recomputed value, 0.5-1.5 ms). 14 write/get pairs."""
import math
import random
from datetime import datetime, timedelta, timezone

random.seed(202)
T0 = datetime(2026, 11, 29, 10, 20, 0, tzinfo=timezone.utc)
TICK, OFFSET, HZ_TICKS = 10.0, 6.83, 5      # memcached host: HZ=100, TCP_DELACK_MIN + 1 tick
SATELLITE = 6                                # the pair whose ACK fired one tick later
PAGE = 9120
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
