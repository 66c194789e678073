#!/usr/bin/env python3
"""Near miss: the same MediaWiki edit request and the same memcached write/get pattern, on an app
server in the second data centre that reads the primary data centre's memcached over a 70 ms round
trip, with allow_tcp_nagle_delay = false (TCP_NODELAY on): the noreply writes leave at once and are
never waited for, and every get costs one round trip, 69.8-70.6 ms (the link's jitter), plus what
the line after it waited for (a reply, 0.1-0.25 ms; a database query, 0.4-1 ms; a recomputed value,
0.5-1.5 ms). The recurring gap is 70-72 ms, no delayed-ACK lattice value. 14 write/get pairs."""
import random
from datetime import datetime, timedelta, timezone

random.seed(204)
T0 = datetime(2026, 11, 29, 10, 40, 0, tzinfo=timezone.utc)
PAGE = 5310
rid = '%024x' % random.getrandbits(96)
out = []
ms = 0.0


def line(chan, msg):
    out.append(f'{(T0 + timedelta(milliseconds=ms)).strftime("%Y-%m-%d %H:%M:%S.%f")} [{rid}] appserver1 mywiki 1.39.10 {chan} DEBUG: {msg}')


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
    ms += random.uniform(0.03, 0.3)
    line('memcached', f'MemcachedPeclBagOStuff debug: get(mywiki:{rkey}:{page})')
    ms += random.uniform(69.8, 70.6)                 # one round trip to the other data centre
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
