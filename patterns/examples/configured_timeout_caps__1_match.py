#!/usr/bin/env python3
"""MediaWiki 1.39 debug log (MonologSpi LineFormatter, channels wfDebug, memcached, DBQuery): page
views look up their parser-cache entry in memcached through MemcachedPeclBagOStuff. The memcached
server 10.64.0.12 has stopped answering (its event thread is stuck), so php-memcached's poll() on
the request runs out after MediaWiki's default 500 ms read timeout ('timeout' => 500000 us, passed
as OPT_RECV_TIMEOUT and OPT_POLL_TIMEOUT): the ERROR line "A TIMEOUT OCCURRED" comes 500.05-500.9
ms after the get (poll's hrtimer, the timer slack and the error path), and the page is then built
from the database. 11 page views, one to two seconds apart."""
import random
from datetime import datetime, timedelta, timezone

random.seed(2201)
t = datetime(2026, 11, 29, 16, 0, 0, tzinfo=timezone.utc)
out = []
rid = ''


def line(chan, lvl, msg):
    out.append(f'{t.strftime("%Y-%m-%d %H:%M:%S.%f")} [{rid}] appserver1 mywiki 1.39.10 {chan} {lvl}: {msg}')


def adv(lo_us, hi_us):
    global t
    t += timedelta(microseconds=random.randint(lo_us, hi_us))


page = 8800
for n in range(11):
    rid = '%024x' % random.getrandbits(96)
    key = f'mywiki:pcache:idhash:{page}-0!canonical'
    line('wfDebug', 'DEBUG', f'Start request GET /wiki/Page_{page}')
    adv(300, 3000)                                  # setup, session, title lookup
    line('memcached', 'DEBUG', f'MemcachedPeclBagOStuff debug: get({key})')
    adv(500050, 500900)                             # poll() runs out at the 500 ms read timeout
    line('memcached', 'ERROR', f'Memcached error for key "{key}" on server "10.64.0.12:11211": A TIMEOUT OCCURRED '
         f'{{"memcached-key":"{key}","memcached-server":"10.64.0.12:11211"}}')
    adv(300, 4000)
    line('DBQuery', 'DEBUG', f'MediaWiki\\Revision\\RevisionStore::fetchRevisionRowFromConds [0.001s] db1: '
         f'SELECT rev_id,rev_page FROM revision WHERE rev_page = {page} LIMIT 1')
    adv(500, 4500)
    line('wfDebug', 'DEBUG', 'Request ended normally')
    adv(450000, 1500000)                            # the next page view arrives
    page += 13

print('\n'.join(out))
