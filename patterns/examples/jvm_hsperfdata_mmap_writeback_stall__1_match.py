"""A JVM's GC pauses stretch to 1-2 s while a backup floods the disk: the hsperfdata mmap write blocks.

Mechanism. HotSpot keeps its perf counters (jstat's data) in /tmp/hsperfdata_<user>/<pid>, a
file it maps MAP_SHARED and updates at every GC and safepoint (UsePerfData, on by default). The
kernel writes the dirty page back like any file page (every dirty_writeback_centisecs = 5 s,
once it is dirty_expire_centisecs = 30 s old); while a page is under writeback, a store to it
can wait for that I/O to finish (page_mkwrite / stable pages). Normally that is microseconds.
At 02:00 cron starts a database backup that writes ~40 GB to the same volume; the writeback
queue is then seconds deep, and when a young GC's counter update hits the page while its
writeback is queued, the VM thread sleeps inside the pause until the I/O completes. The pause
is long but the GC threads do almost nothing: "[gc,cpu] GC(n) User=0.11s Sys=0.01s Real=1.72s". All
Java threads are stopped meanwhile; the export job's item loop shows the gap. The service logs
to the journal (stdout of a systemd unit, -Xlog:gc,gc+cpu:stdout:time,level,tags).

Intervals.
* Export job: one item every 0.6-1.0 s (a query, a PDF render and an S3 PUT), one line each.
* Young GC: every 16-21 s of mutator time, normally 12-25 ms with User about 6x Real.
* During the backup (02:00:04-02:04:16) the hsperfdata page is under writeback for a few
  seconds about every 30 s; the five GCs that fall in those windows wait 1.3-2.1 s for it
  (User and Sys stay at the normal pause's 0.1 s of CPU).
"""
EXPECT = "match"
DESCRIPTION = "journal of a host where cron starts a 40 GB database backup at 02:00: five young GCs of the Java export service then take 1.3-2.1 s with \"User=0.11s Sys=0.01s Real=1.72s\" (a blocked, not a working, pause), and the export job's item loop (one line every ~0.8 s) stalls across each; the other GCs take 12-25 ms"
import random
from datetime import datetime, timedelta, timezone

rnd = random.Random(33)
T0 = datetime(2026, 11, 29, 1, 59, 30, 0, tzinfo=timezone.utc)
HOST = 'app3'
JAVA = 'java[2231]'
ev = []
seq = [0]


def ms(x):
    return timedelta(milliseconds=x)


def journal(t, tag, msg):
    seq[0] += 1
    ev.append((t, seq[0], f'{t.strftime("%Y-%m-%dT%H:%M:%S.%f")}+00:00 {HOST} {tag}: {msg}'))


def app(t, level, logger, msg, trace):
    stamp = t.strftime('%Y-%m-%dT%H:%M:%S.') + f'{t.microsecond // 1000:03d}Z'
    journal(t, JAVA, f'{stamp} trace_id={trace} span_id={"%016x" % rnd.getrandbits(64)} {level:>5} 2231 --- [orders-export] [  export-step-1] {logger[:40]:<40} : {msg}')


def jvm(t, tags, msg):
    stamp = t.strftime('%Y-%m-%dT%H:%M:%S.') + f'{t.microsecond // 1000:03d}+0000'
    journal(t, JAVA, f'[{stamp}][info][{tags:<6}] {msg}')


SPAN = 302000.0
BACKUP = (34000.0, 287000.0)          # mutator-time window of the backup's flood
# young GCs (mutator time); those that hit the hsperfdata page under writeback are blocked
pauses = []
m = rnd.uniform(2000, 6000)
blocked_at = [52000.0, 108000.0, 163000.0, 219000.0, 272000.0]   # every second writeback cycle of the page
while m < SPAN:
    work = rnd.uniform(12, 25)
    wait = 0.0
    if blocked_at and m >= blocked_at[0] - 6000:
        blocked_at.pop(0)
        wait = rnd.uniform(1300, 2100)
    pauses.append((m, work, wait))
    m += rnd.uniform(16000, 21000)


def wall(x):
    return T0 + ms(x + sum(w + b for a, w, b in pauses if a < x))


gc = 212
for a, work, wait in pauses:
    end = wall(a) + ms(work + wait)
    d = work + wait
    jvm(end, 'gc', f'GC({gc}) Pause Young (Normal) (G1 Evacuation Pause) {rnd.randint(3000, 3120)}M->{rnd.randint(610, 700)}M(4096M) {d:.3f}ms')
    user = work / 1000 * 6 * rnd.uniform(0.85, 1.0)          # the copying itself; the wait uses no CPU
    jvm(end, 'gc,cpu', f'GC({gc}) User={user:.2f}s Sys={work / 1000 * rnd.uniform(0.05, 0.3):.2f}s Real={d / 1000:.2f}s')
    gc += 1

# cron starts the backup at 02:00:00; it writes the dump through the page cache
journal(T0 + ms(30000.9), 'CRON[31337]', '(root) CMD (/usr/local/sbin/db-backup.sh >> /var/log/db-backup.log 2>&1)')
journal(T0 + ms(30004.2), 'db-backup.sh[31339]', 'starting dump of database orders to /var/backups/orders-20261129.sql.zst')
journal(T0 + ms(BACKUP[1] - 800), 'db-backup.sh[31339]', 'dump finished: 40.3 GiB written in 252 s')

# the export job: one trace for the whole job run
trace = '%032x' % rnd.getrandbits(128)
x = 150.0
item = 5513000
while x < SPAN:
    x += rnd.uniform(600, 1000)
    item += 1
    app(wall(x), 'INFO', 'c.e.export.InvoiceExportWriter', f'exported invoice customer={item} bytes={rnd.randint(9000, 60000)}', trace)

ev.sort(key=lambda e: (e[0], e[1]))
for _, _, line in ev:
    print(line)
