"""The same PostgreSQL 16 ingest host with checkpoint_flush_after back at 256kB: checkpoints are
cheap, and the worker's 2-4 s stalls are Kafka consumer-group rebalances at other moments.

Mechanism. With checkpoint_flush_after = 256kB the checkpointer asks the kernel to start
writeback (sync_file_range) after every 256 kB it writes, so by the sync phase the files are
clean and each fsync takes milliseconds ("longest=0.0xx s"): the checkpoints no longer stall
the writers. The worker still stalls now and then: the consumer group rebalances when another
consumer of the topic restarts (a deployment rolls through the group), and the worker's
poll() returns only when the new assignment is done, 2-4 s later. Those stalls have the
length of the checkpoint stalls of the match example but fall at random moments, not at the
"checkpoint complete" lines.

Intervals.
* Worker loop as before: fetch 0.75-0.85 s, COPY 120-300 ms, COMMIT 1-3 ms.
* Checkpoints every 85-91 s of WAL; write phase 0.9 of it; sync phase ~80 fsyncs of 0.1-1.5 ms
  (the biggest up to 60 ms).
* Five rebalances at random times, each adding 2.2-3.9 s to one batch's fetch.
"""
EXPECT = "no-match"
DESCRIPTION = "the same ingest host with checkpoint_flush_after = 256kB: checkpoints every ~88 s finish their sync phase in milliseconds (longest=0.0xx s), and the worker's five 2-4 s stalls are consumer-group rebalances at random moments, not at the checkpoint lines"
import random
from datetime import datetime, timedelta, timezone

rnd = random.Random(3902)
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
    long_fsync = rnd.uniform(18, 60)
    small = [rnd.uniform(0.1, 1.5) for _ in range(rnd.randint(70, 95))]
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
rebalances = sorted(T0 + timedelta(seconds=rnd.uniform(30, 360)) for _ in range(5))
for w, prog in enumerate(['ingest[2301]']):
    t = T0 + ms(rnd.uniform(50, 300))
    n = 0
    while t < END:
        rows = rnd.randint(10000, 16000)
        t += ms(rnd.uniform(750, 850))                   # wait for the next batch from Kafka
        if rebalances and t >= rebalances[0]:
            rebalances.pop(0)
            add(t, prog, 'consumer group ingest-events rebalancing: revoking partitions [events-0 events-3]')
            t += ms(rnd.uniform(2200, 3900))
            add(t, prog, 'consumer group ingest-events: assigned partitions [events-0 events-3] generation=%d' % (41 + 5 - len(rebalances)))
        c0 = t
        t += ms(rnd.uniform(120, 300) + rnd.uniform(1, 3))   # COPY it, COMMIT
        n += 1
        add(t, prog, f'batch={n} table=events_2026_11 rows={rows} copy_commit_ms={(t - c0).total_seconds() * 1000:.1f}')

ev.sort(key=lambda e: (e[0], e[1]))
for _, _, line in ev:
    print(line)
