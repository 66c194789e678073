"""Redis 7.0 with its default `disable-thp yes` (no THP warning: Redis turned huge pages off for
itself), on a KVM guest: every background save blocks the server for the fork's page-table copy
and nothing after it. Output: redis.log merged in time order with the DEBUG log of a feed job that
calls that Redis.

Mechanism and intervals:
  * 12.6 GB RSS in 4 KiB pages: fork() copies ~3.3 million page-table entries, ~23 ms per GiB on
    KVM (4 GiB took 94 ms and 8 GiB 182 ms on a 2-vCPU guest), so 275-305 ms; Redis is single-threaded and answers nothing meanwhile, and logs `Background
    saving started by pid N` right after fork() returns. A call issued during fork() is answered
    0.05-0.3 ms after that line.
  * After the fork, copy-on-write copies 4 KiB per first write (tens of microseconds): the child
    reports a few MB (`Fork CoW for RDB: current N MB, peak N MB, average N MB`, Redis 7 wording)
    and the clients see nothing.
  * `save 5 1000`: a save starts 5-6 s after the previous one ended; the child writes the RDB in
    8.5-9.5 s.
  * The job: one command per item after its own work (log-normal, 55-150 ms, median 90 ms),
    answered in 0.1-0.3 ms; about two in three forks catch a call, which is answered right after the
    fork line.
"""
EXPECT = "no-match"
DESCRIPTION = "Redis 7.0 without the THP warning (disable-thp yes): each fork of a 12.6 GB instance blocks it for 275-305 ms, the job's calls stall right up to the \"Background saving started\" lines and never after them, and the save children report a few MB copied on write (fork_page_table_copy, not huge-page copy-on-write)"
import datetime as dt
import math
import random

rng = random.Random(28002)
UTC = dt.timezone.utc
T_START = dt.datetime(2026, 12, 1, 3, 10, 4, 512000, tzinfo=UTC).timestamp()
PID = 1742
out = []


def rstamp(t):
    d = dt.datetime.fromtimestamp(t, UTC)
    return d.strftime("%d %b %Y %H:%M:%S.") + "%03d" % (d.microsecond // 1000)


def redis(t, pid, role, level, msg):
    out.append((t, "%d:%s %s %s %s" % (pid, role, rstamp(t), level, msg)))


def client(t, msg):
    d = dt.datetime.fromtimestamp(t, UTC)
    out.append((t, d.strftime("%Y-%m-%dT%H:%M:%S.%fZ") + " level=debug logger=feeds.cache request_id=job-5531 " + msg))


t = T_START
redis(t, PID, "C", "#", "oO0OoO0OoO0Oo Redis is starting oO0OoO0OoO0Oo")
redis(t, PID, "C", "#", "Redis version=7.0.15, bits=64, commit=00000000, modified=0, pid=%d, just started" % PID)
redis(t, PID, "C", "#", "Configuration loaded")
t += 0.001
redis(t, PID, "M", "*", "monotonic clock: POSIX clock_gettime")
redis(t, PID, "M", "*", "Running mode=standalone, port=6379.")
redis(t, PID, "M", "#", "Server initialized")
t += 0.002
redis(t, PID, "M", "*", "Loading RDB produced by version 7.0.15")
redis(t, PID, "M", "*", "RDB age 52 seconds")
redis(t, PID, "M", "*", "RDB memory usage when created 12297.18 Mb")
load = 84.311
t += load
redis(t, PID, "M", "*", "Done loading RDB, keys loaded: 49226093, keys expired: 0.")
redis(t, PID, "M", "*", "DB loaded from disk: %.3f seconds" % load)
redis(t, PID, "M", "*", "Ready to accept connections")

job_start = t + 3.71
job_end = job_start + 38.0

# --- saves: start 5-6 s after the previous one ended --------------------------------------
forks = []
last_end = t
child = 18311
while True:
    fork_at = last_end + 5.0 + rng.uniform(0.02, 0.98)
    if fork_at > job_end + 1.0:
        break
    fork_ms = rng.uniform(275.0, 305.0) / 1000.0
    redis(fork_at - fork_ms - 0.0001, PID, "M", "*", "1000 changes in 5 seconds. Saving...")
    redis(fork_at, PID, "M", "*", "Background saving started by pid %d" % child)
    episodes = []
    forks.append((fork_at, fork_ms, episodes))
    done = fork_at + rng.uniform(8.5, 9.5)
    redis(done, child, "C", "*", "DB saved on disk")
    peak = rng.randint(5, 14)
    redis(done + rng.uniform(0.010, 0.018), child, "C", "*", "Fork CoW for RDB: current %d MB, peak %d MB, average %d MB" % (peak - rng.randint(0, 3), peak, max(1, peak // 2)))
    last_end = done + rng.uniform(0.03, 0.11)
    redis(last_end, PID, "M", "*", "Background saving terminated with success")
    child += rng.randint(300, 1400)


def answered(t_call):
    for fork_at, fork_ms, episodes in forks:
        if fork_at - fork_ms <= t_call < fork_at:
            return fork_at + rng.uniform(0.00005, 0.0003)
        for s, e in episodes:
            if s <= t_call < e:
                return e + rng.uniform(0.0002, 0.006)
    return t_call + rng.uniform(0.0001, 0.0003)


# --- the job: one command per item ----------------------------------------------------------
t = job_start
item = 4410
while t < job_end:
    item += 1
    r = rng.random()
    if r < 0.55:
        msg = 'msg="redis GET" key=feed:user:%d' % rng.randrange(1, 900000)
    elif r < 0.80:
        msg = 'msg="redis HSET" key=feed:item:%d fields=4' % rng.randrange(1, 5000000)
    elif r < 0.92:
        msg = 'msg="redis ZADD" key=feed:timeline:%d members=1' % rng.randrange(1, 900000)
    else:
        msg = 'msg="redis INCR" key=feed:stats:%s' % rng.choice(["built", "skipped", "merged"])
    client(t, msg)
    t = answered(t + 0.00002)
    t += 0.090 * math.exp(rng.gauss(0.0, 0.25))

out.sort(key=lambda x: x[0])
print("\n".join(text for _, text in out))
