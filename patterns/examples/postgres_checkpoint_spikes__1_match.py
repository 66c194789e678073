"""PostgreSQL 16 on a write-heavy host: every checkpoint's sync phase stalls the COMMITs for 2.2-3.4 s.

Mechanism. An ingest worker consumes a Kafka topic (fetch.wait ~0.8 s), COPYs each batch of
10-16 thousand rows into a partitioned table and COMMITs it (synchronous_commit = on: the
COMMIT waits for the WAL fsync). With the rest of the load the host writes about 12 MB/s of
WAL, so with max_wal_size = 2GB a checkpoint is requested every ~88 s
(max_wal_size / (1 + checkpoint_completion_target) of WAL); the write phase is paced over
checkpoint_completion_target = 0.9 of that interval, then the sync phase fsyncs every file the
checkpoint wrote. This host runs with checkpoint_flush_after = 0 on a volume whose write
throughput is capped, so the write phase leaves most of the table's
pages dirty in the page cache and the fsync of the ingest table's segment (`longest=` in the log)
floods the device queue for 2-3.5 s. The worker's WAL writes (write() throttled in
balance_dirty_pages while the flood lasts) and its COMMIT's fdatasync queue behind it: a batch
whose COPY or COMMIT falls in that time finishes only when the queue drains, i.e. when that
long fsync ends.
The checkpointer then fsyncs the remaining small files (already clean: well under 0.1 ms
each), writes and flushes the checkpoint record, rewrites pg_control and logs "checkpoint
complete" 2-8 ms after the stall ended. The lines come through journald (postgres with
log_destination = syslog, syslog_sequence_numbers on; the worker's stdout).

Intervals.
* Worker loop: fetch a batch 0.75-0.85 s, COPY 120-300 ms, COMMIT 1-3 ms; one line per batch.
* Checkpoint interval: 85-91 s of WAL (the next one starts when that much WAL is written).
* Write phase: 0.9 of the interval; the sync phase follows at once.
* Sync phase: one long fsync of 2.2-3.4 s (the ingest table), ~80 small ones of 0.02-0.08 ms.
* A batch caught in the long fsync ends 0-1.5 ms after it; the "complete" line follows
  after the remaining small fsyncs + 1.5-4 ms (checkpoint record flush and pg_control).
"""
EXPECT = "match"
DESCRIPTION = "journald of a PostgreSQL 16 ingest host: WAL-driven checkpoints every ~88 s, and the ingest worker's batch waits out every sync phase's 2.2-3.4 s fsync (longest=), a 2.8-4.4 s gap ending a few ms before each \"checkpoint complete\" line; its batches otherwise commit every ~1 s"
import random
from datetime import datetime, timedelta, timezone

rnd = random.Random(39)
T0 = datetime(2026, 11, 29, 14, 0, 0, 0, tzinfo=timezone.utc)
HOST = 'db1'
ev = []
seq = [0]


def add(t, prog, msg):
    seq[0] += 1
    ev.append((t, seq[0], f'{t.strftime("%Y-%m-%dT%H:%M:%S.%f")}+00:00 {HOST} {prog}: {msg}'))


def ms(x):
    return timedelta(milliseconds=x)


PG = 'postgres[812]'
pgseq = [140]


def pglog(t, level, msg):
    if t < T0:          # the log starts in the middle of a checkpoint
        return
    pgseq[0] += 1
    add(t, PG, f'[{pgseq[0]}-1] {level}:  {msg}')


stalls = []          # (start, end) of the device-queue floods
t = T0 - ms(61318.4)
lsn = 0x3A000000
redo = lsn
while len(stalls) < 5:
    interval = rnd.uniform(85.0, 91.0)
    pglog(t, 'LOG', 'checkpoint starting: wal')
    write = 0.9 * interval - rnd.uniform(0.2, 0.8)
    long_fsync = rnd.uniform(2200, 3400)
    small = [rnd.uniform(0.02, 0.08) for _ in range(rnd.randint(70, 95))]
    k = rnd.randint(0, len(small))                  # where the big file falls in the sync order
    sync_start = t + timedelta(seconds=write)
    flood_start = sync_start + ms(sum(small[:k]))
    flood_end = flood_start + ms(long_fsync)
    sync_end = flood_end + ms(sum(small[k:]))
    done = sync_end + ms(rnd.uniform(1.5, 4.0))
    stalls.append((flood_start, flood_end))
    bufs = rnd.randint(52000, 61000)
    sync_s = (sync_end - sync_start).total_seconds()
    total = (done - t).total_seconds()
    dist = rnd.randint(1090000, 1110000)
    new_lsn = lsn + dist * 1024
    pglog(done, 'LOG', f'checkpoint complete: wrote {bufs} buffers ({bufs / 1310.72:.1f}%); 0 WAL file(s) added, 0 removed, '
          f'{rnd.randint(32, 35)} recycled; write={write:.3f} s, sync={sync_s:.3f} s, total={total:.3f} s; '
          f'sync files={len(small) + 1}, longest={long_fsync / 1000:.3f} s, average={sync_s / (len(small) + 1):.3f} s; '
          f'distance={dist} kB, estimate={dist + rnd.randint(-3000, 3000)} kB; lsn=3/{new_lsn:08X}, redo lsn=3/{lsn + 40:08X}')
    lsn = new_lsn
    # the next one is requested when another max_wal_size / 1.9 of WAL has been written
    t = max(t + timedelta(seconds=interval), done + ms(rnd.uniform(1, 15)))


END = done + ms(7400)
for w, prog in enumerate(['ingest[2301]']):
    t = T0 + ms(rnd.uniform(50, 300))
    n = 0
    while t < END:
        rows = rnd.randint(10000, 16000)
        t += ms(rnd.uniform(750, 850))                   # wait for the next batch from Kafka
        c0 = t
        t += ms(rnd.uniform(120, 300) + rnd.uniform(1, 3))   # COPY it, COMMIT
        for s, e in stalls:
            if s < t and e > c0:                         # its WAL writes and fdatasync queue behind the flood
                t = max(t, e + ms(rnd.uniform(0, 1.5)))
        n += 1
        add(t, prog, f'batch={n} table=events_2026_11 rows={rows} copy_commit_ms={(t - c0).total_seconds() * 1000:.1f}')

ev.sort(key=lambda e: (e[0], e[1]))
for _, _, line in ev:
    print(line)
