"""Redis 6.0 with `appendonly yes`, `appendfsync everysec` and `no-appendfsync-on-rewrite no`
rewrites its AOF on a network disk; while the rewrite child saturates the disk, every background
fsync of the AOF takes longer than two seconds, Redis logs "Asynchronous AOF fsync is taking too
long" and then blocks in write(2) until that fsync ends. Output: the Redis log (loglevel notice)
followed by the DEBUG log of a session-sync worker that calls that Redis (`cat redis.log worker.log`),
and the operator's `redis-cli INFO persistence | ts` a few seconds later (aof_delayed_fsync counts
the writes that could not wait).

Mechanism and intervals:
  * everysec: beforeSleep() writes the AOF buffer and, once the Unix second has moved on since the
    last fsync, hands fdatasync() to the bio thread. Redis 6.0 compares whole seconds
    (server.unixtime), so fsyncs start in the first event-loop pass after a second boundary.
  * While that fsync runs, the next writes are postponed: aof_flush_postponed_start is set to the
    current Unix second, and the write waits until two whole seconds have passed since it (1-2 s
    of real time after the fsync started). Replies are still sent meanwhile: everysec does not
    hold them for the disk.
  * Then Redis logs the line (LL_NOTICE, '*') and calls write(2), which blocks while an fsync is
    in progress on the same file, until the fsync completes; a command issued meanwhile is
    answered at its end plus 0.2-5 ms of queue drain. The next fsync is handed out as soon as the
    write returns, and the cycle repeats.
  * The disk: outside the rewrite an fdatasync() takes 8-40 ms. From `Background append only file
    rewriting started` the child streams 2.1 GB at ~140 MB/s (15 s) and each fdatasync of the
    live AOF waits behind its queued writes: 2.4-3.4 s. The fork itself (2.1 GB in 4 KiB pages on
    KVM, ~23 ms per GiB) blocks for 45-52 ms.
  * The worker: one Redis command per session record, after 120-300 ms of its own work (log-normal,
    median 190 ms), answered in 0.1-0.3 ms when Redis is not blocked.
"""
EXPECT = "match"
DESCRIPTION = "Redis 6.0 log merged with a worker's Redis calls: during an AOF rewrite every background fsync takes 2.4-3.4 s, Redis logs \"Asynchronous AOF fsync is taking too long\" at each whole second two seconds after the fsync began, and the worker's next call then stalls 0.3-1.9 s until that fsync ends"
import datetime as dt
import math
import random

rng = random.Random(32001)
UTC = dt.timezone.utc
T0 = dt.datetime(2026, 12, 1, 9, 41, 7, 250000, tzinfo=UTC).timestamp()
PID = 4242
AOF_LINE = ("Asynchronous AOF fsync is taking too long (disk is busy?). Writing the AOF buffer "
            "without waiting for fsync to complete, this may slow down Redis.")
out = []


def rstamp(t):
    d = dt.datetime.fromtimestamp(t, UTC)
    return d.strftime("%d %b %Y %H:%M:%S.") + "%03d" % (d.microsecond // 1000)


def redis(t, pid, role, msg):
    out.append((t, "%d:%s %s * %s" % (pid, role, rstamp(t), msg)))


def client(t, msg):
    d = dt.datetime.fromtimestamp(t, UTC)
    out.append((t, d.strftime("%Y-%m-%dT%H:%M:%S.%fZ") + " level=debug logger=sessions.sync request_id=sync-2207 " + msg))


END = T0 + 80.0
REWRITE_AT = T0 + 31.37
child = 23011
fork_ms = rng.uniform(0.045, 0.052)
redis(REWRITE_AT - fork_ms - 0.0002, PID, "M", "Starting automatic rewriting of AOF on 100% growth")
redis(REWRITE_AT, PID, "M", "Background append only file rewriting started by pid %d" % child)
REWRITE_END = REWRITE_AT + 2100 / 140.0 * rng.uniform(0.97, 1.03)

# fsync cycles (Redis 6.0, whole-second comparisons)
blocked = [(REWRITE_AT - fork_ms, REWRITE_AT)]      # fork()
fsync_at = math.floor(REWRITE_AT) + 1 + rng.uniform(0.0005, 0.003)
while fsync_at < END:
    busy = REWRITE_AT <= fsync_at < REWRITE_END
    t_f = rng.uniform(2.4, 3.4) if busy else rng.uniform(0.008, 0.040)
    done = fsync_at + t_f
    postponed_from = math.floor(fsync_at)              # aof_flush_postponed_start = unixtime
    write_at = postponed_from + 2 + rng.uniform(0.0005, 0.003)
    if done > write_at:                                # still in progress after two seconds
        redis(write_at, PID, "M", AOF_LINE)
        blocked.append((write_at, done))
        fsync_at = done + rng.uniform(0.0001, 0.0008)  # handed out when the write returns
    else:
        fsync_at = math.floor(fsync_at) + 1 + rng.uniform(0.0005, 0.003)

t = REWRITE_END
redis(t, PID, "M", "AOF rewrite child asks to stop sending diffs.")
redis(t + 0.0004, child, "C", "Parent agreed to stop sending diffs. Finalizing AOF...")
redis(t + 0.0006, child, "C", "Concatenating %.2f MB of AOF diff received from parent." % rng.uniform(0.8, 2.0))
redis(t + 0.041, child, "C", "SYNC append only file rewrite performed")
redis(t + 0.043, child, "C", "AOF rewrite: %d MB of memory used by copy-on-write" % rng.randint(18, 40))
t += rng.uniform(0.08, 0.12)
redis(t, PID, "M", "Background AOF rewrite terminated with success")
redis(t + 0.002, PID, "M", "Residual parent diff successfully flushed to the rewritten AOF (%.2f MB)" % rng.uniform(0.1, 0.6))
redis(t + 0.004, PID, "M", "Background AOF rewrite finished successfully")


def answered(t_call):
    for s, e in blocked:
        if s <= t_call < e:
            return e + rng.uniform(0.0002, 0.005)
    return t_call + rng.uniform(0.0001, 0.0003)


t = T0 + rng.uniform(0.0, 0.05)
while t < END:
    r = rng.random()
    sid = "%032x" % rng.getrandbits(128)
    if r < 0.45:
        msg = 'msg="redis GET" key=sess:%s' % sid
    elif r < 0.85:
        msg = 'msg="redis SETEX" key=sess:%s ttl=1440' % sid
    else:
        msg = 'msg="redis DEL" key=sess:%s' % sid
    client(t, msg)
    t = answered(t + 0.00002)
    t += 0.19 * math.exp(rng.gauss(0.0, 0.22))

# `cat redis.log worker.log`: the server's lines first, then the worker's, each file in its own order
server = sorted((x for x in out if not x[1].startswith("20")), key=lambda x: x[0])
worker = sorted((x for x in out if x[1].startswith("20")), key=lambda x: x[0])
lines = [text for _, text in server + worker]

# the operator's `redis-cli INFO persistence | ts '%Y-%m-%dT%H:%M:%.SZ'` right after
t = END + 4.27
delayed = sum(1 for s, e in blocked[1:])
for x in ["# Persistence", "loading:0", "rdb_changes_since_last_save:%d" % rng.randint(300000, 900000),
          "rdb_bgsave_in_progress:0", "rdb_last_save_time:%d" % int(T0 - 3127), "rdb_last_bgsave_status:ok",
          "aof_enabled:1", "aof_rewrite_in_progress:0", "aof_rewrite_scheduled:0",
          "aof_last_rewrite_time_sec:%d" % round(REWRITE_END - REWRITE_AT), "aof_current_rewrite_time_sec:-1",
          "aof_last_bgrewrite_status:ok", "aof_last_write_status:ok", "aof_last_cow_size:%d" % (rng.randint(18, 40) << 20),
          "aof_current_size:%d" % rng.randint(2100000000, 2300000000), "aof_base_size:%d" % rng.randint(2050000000, 2100000000),
          "aof_pending_rewrite:0", "aof_buffer_length:0", "aof_rewrite_buffer_length:0",
          "aof_pending_bio_fsync:0", "aof_delayed_fsync:%d" % delayed]:
    d = dt.datetime.fromtimestamp(t, UTC)
    lines.append(d.strftime("%Y-%m-%dT%H:%M:%S.%fZ") + " " + x)
    t += rng.uniform(0.000003, 0.00003)
print("\n".join(lines))
