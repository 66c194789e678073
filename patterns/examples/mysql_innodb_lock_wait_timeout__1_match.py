"""MediaWiki 1.39 on MariaDB 10.11: edits of one page wait out innodb_lock_wait_timeout (50 s).

Mechanism. An import holds the `page` row of Project:Sandbox in an open transaction for about
nine minutes. Every edit of that page runs WikiPage::lockAndGetLatest, i.e.
SELECT page_latest FROM `page` WHERE page_id = 4 LIMIT 1 FOR UPDATE, which needs an exclusive
record lock on that row and so waits in InnoDB's lock_wait(). MariaDB >= 10.6 (MDEV-24671)
waits on a condition variable with an absolute deadline: suspend_time = my_hrtime_coarse() at
the start of the wait, deadline = suspend_time + innodb_lock_wait_timeout (default 50 s). When
it passes, the statement is rolled back and the client gets ER_LOCK_WAIT_TIMEOUT (1205, "Lock
wait timeout exceeded; try restarting transaction"); MediaWiki logs "Error 1205 from
WikiPage::lockAndGetLatest, ..." on the DBQuery channel and throws DBQueryError.

Intervals.
* BEGIN line -> the FOR UPDATE reaches InnoDB: 0.15-0.5 ms (PHP, one LAN hop).
* The wait: 50 s minus 0-4 ms, because the coarse clock (CLOCK_REALTIME_COARSE) lags by up to
  one tick of this CONFIG_HZ=250 host, plus 0.05-0.1 ms of timer slack and wake-up.
* Rollback of the statement, the error packet, MediaWiki's log call: 0.2-0.6 ms.
  So the gap before the DBQuery ERROR line is 49.996-50.001 s, in every timed-out edit.
* Page views: 4-6 lines 0.3-4 ms apart (memcached and DB round trips on a LAN); edits of other
  pages take the same FOR UPDATE without waiting.
"""
EXPECT = "match"
DESCRIPTION = "MediaWiki 1.39 on MariaDB 10.11: an import holds the page row of Project:Sandbox, and each of 8 edits of that page waits 49.996-50.001 s in SELECT ... FOR UPDATE before \"Error 1205 ... Lock wait timeout exceeded\"; page views and edits of other pages go on in 3-15 ms"
import random
from datetime import datetime, timedelta, timezone

rnd = random.Random(37)
T0 = datetime(2026, 11, 29, 9, 40, 0, 0, tzinfo=timezone.utc)
HOST, WIKI, VER, DB = 'appserver1', 'mywiki', '1.39.10', '10.64.16.20'
ev = []


def add(t, rid, chan, level, msg):
    ev.append((t, f'{t.strftime("%Y-%m-%d %H:%M:%S.%f")} [{rid}] {HOST} {WIKI} {VER} {chan} {level}: {msg}'))


def ms(x):
    return timedelta(milliseconds=x)


def rid():
    return '%024x' % rnd.getrandbits(96)


def page_view(t):
    r = rid()
    n = rnd.randint(1000, 9999)
    add(t, r, 'wfDebug', 'DEBUG', f'Start request GET /wiki/Page_{n}')
    t += ms(rnd.uniform(0.3, 1.2))
    add(t, r, 'DBQuery', 'DEBUG', f'MediaWiki\\Page\\PageStore::getPageByNameViaLinkCache [0.001s] {DB}: SELECT page_id,page_namespace,page_title,page_is_redirect,page_is_new,page_touched,page_links_updated,page_latest,page_len,page_content_model FROM `page` WHERE page_namespace = 0 AND page_title = \'Page_{n}\' LIMIT 1')
    t += ms(rnd.uniform(0.5, 2.0))
    add(t, r, 'memcached', 'DEBUG', f'MemcachedPeclBagOStuff debug: get({WIKI}:pcache:idhash:{n}-0!canonical)')
    t += ms(rnd.uniform(0.4, 1.5))
    if rnd.random() < 0.3:
        add(t, r, 'DBQuery', 'DEBUG', f'MediaWiki\\Revision\\RevisionStore::fetchRevisionRowFromConds [0.001s] {DB}: SELECT rev_id,rev_page,rev_actor,rev_timestamp,rev_minor_edit,rev_deleted,rev_len,rev_parent_id,rev_sha1 FROM `revision` WHERE rev_page = {n} LIMIT 1')
        t += ms(rnd.uniform(0.8, 4.0))
    add(t, r, 'wfDebug', 'DEBUG', 'Request ended normally')


def edit(t, title, page_id, blocked):
    r = rid()
    url = f'/w/index.php?title={title}&action=submit'
    add(t, r, 'wfDebug', 'DEBUG', f'Start request POST {url}')
    t += ms(rnd.uniform(0.4, 1.5))
    add(t, r, 'DBQuery', 'DEBUG', f'MediaWiki\\Page\\PageStore::getPageByNameViaLinkCache [0.001s] {DB}: SELECT page_id,page_namespace,page_title,page_is_redirect,page_is_new,page_touched,page_links_updated,page_latest,page_len,page_content_model FROM `page` WHERE page_namespace = 4 AND page_title = \'{title.split(":", 1)[1]}\' LIMIT 1')
    t += ms(rnd.uniform(1.0, 3.5))
    add(t, r, 'DBQuery', 'DEBUG', f'EditPage::internalAttemptSave [0.000s] {DB}: BEGIN')
    sql = f'SELECT page_latest FROM `page` WHERE page_id = {page_id} LIMIT 1 FOR UPDATE'
    reach = rnd.uniform(0.15, 0.5)
    if blocked:
        # wait from a coarse timestamp up to one 4 ms tick old, woken a little late
        wait = 50000.0 - rnd.uniform(0.0, 4.0) + rnd.uniform(0.05, 0.1)
        t += ms(reach + wait + rnd.uniform(0.2, 0.6))
        err = 'Lock wait timeout exceeded; try restarting transaction'
        add(t, r, 'DBQuery', 'ERROR', f'Error 1205 from WikiPage::lockAndGetLatest, {err} {sql} {DB} '
            f'{{"method":"Wikimedia\\\\Rdbms\\\\Database::getQueryExceptionAndLog","errno":1205,"error":"{err}","sql1line":"{sql}","fname":"WikiPage::lockAndGetLatest","db_server":"{DB}","db_name":"{WIKI}","db_user":"wikiuser"}}')
        t += ms(rnd.uniform(0.4, 1.2))
        add(t, r, 'exception', 'ERROR', f'[{r}] {url}   Wikimedia\\Rdbms\\DBQueryError: Error 1205: {err} Function: WikiPage::lockAndGetLatest Query: {sql}')
        return
    t += ms(reach + rnd.uniform(0.3, 0.9))
    add(t, r, 'DBQuery', 'DEBUG', f'WikiPage::lockAndGetLatest [0.001s] {DB}: {sql}')
    t += ms(rnd.uniform(1.5, 5.0))
    add(t, r, 'DBQuery', 'DEBUG', f'MediaWiki\\Storage\\PageUpdater::saveRevision [0.002s] {DB}: INSERT INTO `revision` (rev_page,rev_parent_id,rev_actor,rev_timestamp,rev_minor_edit,rev_deleted,rev_len,rev_sha1,rev_comment_id) VALUES ({page_id},{rnd.randint(80000, 90000)},{rnd.randint(2, 900)},\'20261129{rnd.randint(94000, 95959)}\',0,0,{rnd.randint(200, 9000)},\'{"%031x" % rnd.getrandbits(124)}\',{rnd.randint(100, 999)})')
    t += ms(rnd.uniform(1.0, 3.0))
    add(t, r, 'DBQuery', 'DEBUG', f'Wikimedia\\Rdbms\\Database::commit [0.001s] {DB}: COMMIT')
    t += ms(rnd.uniform(0.5, 2.0))
    add(t, r, 'wfDebug', 'DEBUG', 'Request ended normally')


# page views: about one every 13 s over 11 minutes
t = T0 + ms(rnd.uniform(100, 900))
end = T0 + timedelta(minutes=11)
while t < end:
    page_view(t)
    t += ms(rnd.expovariate(1 / 13000.0))

# the lock is held from 09:40:20 to 09:49:40: eight edits of the sandbox time out
for k in range(8):
    edit(T0 + timedelta(seconds=25 + 62 * k + rnd.uniform(0, 20)), 'Project:Sandbox', 4, True)
# edits of other pages lock their own rows and go through
for title, pid in [('Project:About', 17), ('Project:Help', 23), ('Project:FAQ', 31)]:
    edit(T0 + timedelta(seconds=rnd.uniform(30, 600)), title, pid, False)

ev.sort(key=lambda e: e[0])
for _, line in ev:
    print(line)
