"""Redis 6.0 on Debian 11 (kernel 5.10, THP [always]): the start-up THP warning is there, but the
kernel splits a shared huge page on a copy-on-write fault and copies 4 KiB, so saves cost the
clients nothing; the job's stalls come from another client's slow commands at random moments.
Output: redis.log merged in time order with the DEBUG log of a feed job that calls that Redis.

Mechanism and intervals:
  * Redis 6.0 has no `disable-thp`, so it warns (lower-case "you") and its heap is in huge pages;
    fork() takes well under 1 ms.
  * Since Linux 5.8 the first write to a shared anonymous huge page splits the PMD and copies one
    4 KiB page: the child reports 20-60 MB copied per save and the event loop keeps up.
  * `save 5 1000`: a save starts 5-6 s after the previous one ended; the child writes in 3.6-4.4 s.
  * A reporting cron on another host runs `ZUNIONSTORE` over large sorted sets at random moments
    (Poisson, one every ~5 s), each blocking the single-threaded server for 150-420 ms; a job
    command issued meanwhile is answered at its end.
  * The job: one command per item after its own work (log-normal, 55-150 ms, median 90 ms).
"""
EXPECT = "no-match"
DESCRIPTION = "Redis 6.0 with the THP warning on a 5.10 kernel (CoW splits huge pages, the children report 20-60 MB copied): saves every ~10 s leave the job's calls alone, which stall for 150-420 ms at random moments behind another client's slow ZUNIONSTORE"
import datetime as dt
import math
import random

rng = random.Random(28003)
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
job_end = job_start + 36.0

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
    forks.append((fork_at, fork_ms, episodes))
    done = fork_at + rng.uniform(3.6, 4.4)
    redis(done, child, "C", "*", "DB saved on disk")
    redis(done + rng.uniform(0.001, 0.004), child, "C", "*", "RDB: %d MB of memory used by copy-on-write" % rng.randint(20, 60))
    last_end = done + rng.uniform(0.03, 0.11)
    redis(last_end, PID, "M", "*", "Background saving terminated with success")
    child += rng.randint(300, 1400)


slow = []                       # another client's ZUNIONSTOREs, at random moments
s = job_start
while s < job_end:
    s += rng.expovariate(1 / 5.0)
    slow.append((s, s + rng.uniform(0.15, 0.42)))


def answered(t_call):
    for s, e in slow:
        if s <= t_call < e:
            return e + rng.uniform(0.0002, 0.004)
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
