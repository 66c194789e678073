"""Redis 6.0 on a pre-5.8 kernel with transparent huge pages [always]: every background save is
followed by seconds of slow commands. Output: redis.log (loglevel notice) and the DEBUG log of a
feed-builder job that calls that Redis, merged in time order, as `sort -m` of the two files or a
reader of both would show them.

Mechanism and intervals:
  * Host: CentOS 7 kernel 3.10, /sys/kernel/mm/transparent_hugepage/enabled = [always]. Redis 6.0
    has no `disable-thp` (added in 6.2), so at start-up it only warns (lower-case "you", `echo
    never`) and its 1.5 GB heap ends up in 2 MiB anonymous huge pages.
  * `save 5 1000` on a busy instance: serverCron starts a save once 5 s have passed since the last
    one ended and 1000 keys changed (checked once per cron second), so saves start 5-6 s after
    the previous `Background saving terminated`. The child writes the 1.5 GB dataset in 3.6-4.4 s
    (~380 MB/s with LZF).
  * fork() itself is short: with huge pages the parent copies one page-middle entry per 2 MiB,
    ~0.5 ms per GiB, so 0.6-1.0 ms here; the job's calls are ~30 ms apart and rarely land in it.
  * After fork() every page is shared copy-on-write, and before Linux 5.8 the first write to a
    shared anonymous huge page copies all 2 MiB (512 x the 4 KiB copy) inside Redis's single
    thread. The instance serves the whole application fleet, so right after the fork nearly every
    write touches an uncopied huge page and the event loop falls behind: the first backlog of
    280-400 ms starts 4-60 ms after the fork line (the first write commands), then further
    backlogs of 180-340 ms with 0.15-0.7 s of service between them, until the hot pages have been
    copied 1.5-3 s after the fork. A command issued during a backlog is answered at its end (plus
    0.2-6 ms of queue drain); otherwise in 0.1-0.3 ms.
  * The child reports 1.0-1.35 GB copied ("RDB: N MB of memory used by copy-on-write", the
    Redis <= 6.0 wording): most of the heap's huge pages were duplicated.
  * The job: one Redis command per item, after its own work per item (log-normal, 18-50 ms,
    median 30 ms): about thirty calls a second, logged just before each call. (A trigger-only
    cause needs several occurrences and a client busy enough that the first stall after each
    line is placed within a few tens of ms: hence a minute of log, six saves, ~1 600 lines.)
"""
EXPECT = "match"
DESCRIPTION = "redis.log of Redis 6.0 (start-up THP warning, a save every ~10 s, the child reporting 1.0-1.3 GB copied on write) merged with a feed job's Redis calls (about 30 a second, six saves): after each \"Background saving started\" line the job's calls stall for 180-400 ms several times over the next 1.5-3 s, not at the fork line itself"
import datetime as dt
import math
import random

rng = random.Random(28001)
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
redis(t, PID, "C", "#", "Redis version=6.0.16, bits=64, commit=00000000, modified=0, pid=%d, just started" % PID)
redis(t, PID, "C", "#", "Configuration loaded")
t += 0.002
redis(t, PID, "M", "*", "Running mode=standalone, port=6379.")
redis(t, PID, "M", "#", "WARNING: The TCP backlog setting of 511 cannot be enforced because /proc/sys/net/core/somaxconn is set to the lower value of 128.")
redis(t, PID, "M", "#", "Server initialized")
redis(t, PID, "M", "#", "WARNING overcommit_memory is set to 0! Background save may fail under low memory condition. To fix this issue add 'vm.overcommit_memory = 1' to /etc/sysctl.conf and then reboot or run the command 'sysctl vm.overcommit_memory=1' for this to take effect.")
redis(t, PID, "M", "#", "WARNING you have Transparent Huge Pages (THP) support enabled in your kernel. This will create latency and memory usage issues with Redis. To fix this issue run the command 'echo never > /sys/kernel/mm/transparent_hugepage/enabled' as root, and add it to your /etc/rc.local in order to retain the setting after a reboot. Redis must be restarted after THP is disabled.")
t += 0.006
redis(t, PID, "M", "*", "Loading RDB produced by version 6.0.16")
redis(t, PID, "M", "*", "RDB age 38 seconds")
redis(t, PID, "M", "*", "RDB memory usage when created 1502.33 Mb")
load = 10.383
t += load
redis(t, PID, "M", "*", "DB loaded from disk: %.3f seconds" % load)
redis(t, PID, "M", "*", "Ready to accept connections")

job_start = t + 3.71
job_end = job_start + 56.0

# --- saves: start 5-6 s after the previous one ended --------------------------------------
forks = []
last_end = t
child = 18311
while True:
    fork_at = last_end + 5.0 + rng.uniform(0.02, 0.98)
    if fork_at > job_end + 1.0:
        break
    fork_ms = rng.uniform(0.6, 1.0) / 1000.0
    redis(fork_at - fork_ms - 0.0001, PID, "M", "*", "1000 changes in 5 seconds. Saving...")
    redis(fork_at, PID, "M", "*", "Background saving started by pid %d" % child)
    episodes = []
    start = fork_at + rng.uniform(0.004, 0.06)
    length = rng.uniform(0.28, 0.40)
    horizon = fork_at + rng.uniform(1.5, 3.0)
    while start + length <= horizon:
        episodes.append((start, start + length))
        start += length + rng.uniform(0.15, 0.70)
        length = rng.uniform(0.18, 0.34)
    forks.append((fork_at, fork_ms, episodes))
    done = fork_at + rng.uniform(3.6, 4.4)
    redis(done, child, "C", "*", "DB saved on disk")
    redis(done + rng.uniform(0.001, 0.004), child, "C", "*", "RDB: %d MB of memory used by copy-on-write" % rng.randint(1010, 1350))
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
    t += 0.030 * math.exp(rng.gauss(0.0, 0.25))

out.sort(key=lambda x: x[0])
print("\n".join(text for _, text in out))
