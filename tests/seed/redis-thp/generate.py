#!/usr/bin/env python3
"""Write redis.log and client.log.gz: a Redis 7.0 instance on a pre-5.8 kernel with Transparent Huge
Pages set to `always`, saving in the background every several seconds, and the log of four PHP
workers of one application server that use it (the same client layout as samples/redis-bgsave:
WMF Monolog line format, UTC, microseconds, one line before every Redis call).

Why the workers stall (see README.md):
  * Redis's heap sits in 2 MiB transparent huge pages. fork() only has to copy one page-middle
    entry per 2 MiB, so the fork itself is short (a few ms for several GB): no stall at the fork
    line worth the name.
  * After the fork, parent and child share every huge page copy-on-write. On kernels before 5.8
    the first write to a shared anonymous huge page copies the whole 2 MiB (512 x the 4 KiB
    cost) before the write proceeds. Redis is single-threaded, so while it copies it serves
    nobody. The instance serves the whole application fleet; in the first seconds after each
    fork nearly every write lands on a not-yet-copied huge page, the event loop falls behind,
    and the commands of every client queue up. The workers seen here hit those backlogs as
    stalls of about 200-400 ms: the first starts within the first write commands after the fork
    line (a few ms to tens of ms after it) and is the longest; more come at random moments over
    the following 1.5-3 s, until most written-to pages have been copied.
  * Once most of the pages the workload writes to have been copied (the child's `Fork CoW`
    peak shows how much), Redis is fast again until the next fork.

Standard library only; fixed seed, so the output is the same on every run. For variants, the
environment variables THP_SAVE_SECONDS (the save rule's seconds, default 5), THP_RUN_SECONDS
(the workers' log length, default 90) and THP_OUT_DIR (default: this folder) change the cadence,
the length and where the files go.
"""

import datetime as dt
import gzip
import math
import os
import random
import sys

SEED = 20261201
HERE = (sys.argv[1] if len(sys.argv) > 1 else None) or os.environ.get("THP_OUT_DIR") or os.path.dirname(os.path.abspath(__file__))
OUT_REDIS = os.path.join(HERE, "redis.log")
OUT_CLIENT = os.path.join(HERE, "client.log.gz")

UTC = dt.timezone.utc
REDIS_START = dt.datetime(2026, 12, 1, 3, 10, 4, 512000, tzinfo=UTC).timestamp()
LOAD_SECONDS = 21.384                  # loading the RDB at start-up
RUN_SECONDS = float(os.environ.get("THP_RUN_SECONDS", "90"))                     # how long the workers' log covers
WORKERS = 4
KEYS = 11_600_000
RSS_MB = 3_260

SAVE_SECONDS = int(os.environ.get("THP_SAVE_SECONDS", "5"))                       # `save 5 2000`: a busy instance saves all the time
SAVE_CHANGES = 2000
WRITE_RATE_MB_S = 360                  # how fast the child writes the RDB (LZF compression on)

rng = random.Random(SEED)


def lognormal(median, sigma, cap=None):
    v = median * math.exp(rng.gauss(0.0, sigma))
    return min(v, cap) if cap else v


def redis_stamp(t):
    d = dt.datetime.fromtimestamp(t, UTC)
    ms = int(d.microsecond / 1000)     # Redis truncates to whole ms
    return d.strftime("%d %b %Y %H:%M:%S.") + "%03d" % ms


def client_stamp(t):
    d = dt.datetime.fromtimestamp(t, UTC)
    return d.strftime("%Y-%m-%d %H:%M:%S.") + "%06d" % d.microsecond


def redis_line(t, pid, role, level, msg):
    return (t, "%d:%s %s %s %s" % (pid, role, redis_stamp(t), level, msg))


def main():
    server_pid = 1742
    rl = []
    t = REDIS_START
    rl.append(redis_line(t, server_pid, "C", "#", "oO0OoO0OoO0Oo Redis is starting oO0OoO0OoO0Oo"))
    rl.append(redis_line(t, server_pid, "C", "#", "Redis version=7.0.15, bits=64, commit=00000000, modified=0, pid=%d, just started" % server_pid))
    rl.append(redis_line(t, server_pid, "C", "#", "Configuration loaded"))
    t += 0.001
    rl.append(redis_line(t, server_pid, "M", "*", "monotonic clock: POSIX clock_gettime"))
    rl.append(redis_line(t, server_pid, "M", "*", "Running mode=standalone, port=6379."))
    rl.append(redis_line(t, server_pid, "M", "#", "WARNING: The TCP backlog setting of 511 cannot be enforced because /proc/sys/net/core/somaxconn is set to the lower value of 128."))
    rl.append(redis_line(t, server_pid, "M", "#", "Server initialized"))
    rl.append(redis_line(t, server_pid, "M", "#", "WARNING You have Transparent Huge Pages (THP) support enabled in your kernel. This will create latency and memory usage issues with Redis. To fix this issue run the command 'echo madvise > /sys/kernel/mm/transparent_hugepage/enabled' as root, and add it to your /etc/rc.local in order to retain the setting after a reboot. Redis must be restarted after THP is disabled (set to 'madvise' or 'never')."))
    t += 0.002
    rl.append(redis_line(t, server_pid, "M", "*", "Loading RDB produced by version 7.0.15"))
    rl.append(redis_line(t, server_pid, "M", "*", "RDB age 97 seconds"))
    rl.append(redis_line(t, server_pid, "M", "*", "RDB memory usage when created 3104.62 Mb"))
    t += LOAD_SECONDS
    rl.append(redis_line(t, server_pid, "M", "*", "Done loading RDB, keys loaded: %d, keys expired: 0." % KEYS))
    rl.append(redis_line(t, server_pid, "M", "*", "DB loaded from disk: %.3f seconds" % LOAD_SECONDS))
    rl.append(redis_line(t, server_pid, "M", "*", "Ready to accept connections"))
    ready = t

    # --- the save cycle: the rule fires SAVE_SECONDS after the last save ended ------------
    client_start = ready + 6.3
    client_end = client_start + RUN_SECONDS
    forks = []                  # (fork line time, [(episode start, episode end), ...])
    child_pid = 18311
    last_save_end = ready
    while True:
        fork_at = last_save_end + SAVE_SECONDS + rng.uniform(0.02, 0.98)   # serverCron, 1 s granularity
        if fork_at > client_end + 2.0:
            break
        fork_ms = rng.uniform(1.2, 2.6) / 1000.0          # THP: one PMD entry per 2 MiB
        # serverCron prints the save rule that fired, not the actual count of changes
        rl.append(redis_line(fork_at - fork_ms - 0.0001, server_pid, "M", "*",
                             "%d changes in %d seconds. Saving..." % (SAVE_CHANGES, SAVE_SECONDS)))
        rl.append(redis_line(fork_at, server_pid, "M", "*", "Background saving started by pid %d" % child_pid))
        # CoW backlog episodes. Right after fork() returns nearly every write hits a shared huge
        # page, so the first backlog builds within the first write commands (a few ms to tens of
        # ms after the line) and is the longest. More follow at random moments while the pages
        # the workload writes to are still being copied, until Redis keeps up again within
        # 1.5-3 s of the fork.
        episodes = []
        start = fork_at + rng.uniform(0.004, 0.06)
        length = rng.uniform(0.28, 0.40)
        horizon = fork_at + rng.uniform(1.5, 3.0)
        while start + length <= horizon:
            episodes.append((start, start + length))
            start += length + rng.uniform(0.15, 0.70)
            length = rng.uniform(0.18, 0.34)
        forks.append((fork_at, fork_ms, episodes))
        save_secs = RSS_MB / WRITE_RATE_MB_S * rng.uniform(0.93, 1.08)
        done = fork_at + save_secs
        cow_peak = rng.randint(2300, 3050)                # most huge pages got copied
        cow_cur = cow_peak - rng.randint(0, 200)
        cow_avg = int(cow_peak * rng.uniform(0.62, 0.74))
        rl.append(redis_line(done, child_pid, "C", "*", "DB saved on disk"))
        rl.append(redis_line(done + rng.uniform(0.010, 0.018), child_pid, "C", "*",
                             "Fork CoW for RDB: current %d MB, peak %d MB, average %d MB" % (cow_cur, cow_peak, cow_avg)))
        end = done + rng.uniform(0.03, 0.11)
        rl.append(redis_line(end, server_pid, "M", "*", "Background saving terminated with success"))
        last_save_end = end
        child_pid += rng.randint(180, 900)

    # --- the workers ------------------------------------------------------------------------
    def redis_call(t_call):
        """When a call issued at t_call gets its answer."""
        for fork_at, fork_ms, episodes in forks:
            if fork_at - fork_ms <= t_call < fork_at:          # inside fork() itself
                return fork_at + rng.uniform(0.00005, 0.0004)
            for s, e in episodes:
                if s <= t_call < e:                             # queued behind the CoW backlog
                    return e + rng.uniform(0.0002, 0.006)
        return t_call + lognormal(0.00011, 0.35, 0.004)

    cl = []
    for w in range(WORKERS):
        t = client_start + rng.uniform(0.0, 0.05)
        while t < client_end:
            req_id = "%016x" % rng.getrandbits(64)
            page = rng.randint(1, 60000)
            cl.append((t, "%s [%s] appserver3 mywiki 1.39.10 wfDebug DEBUG: Start request GET /wiki/Page_%d" % (client_stamp(t), req_id, page)))
            t0 = t
            for _ in range(rng.randint(20, 60)):
                t += lognormal(0.0017, 0.3, 0.012)         # the page's own work before the call
                r = rng.random()
                if r < 0.80:
                    msg = "RedisBagOStuff::get key:%d" % rng.randrange(KEYS)
                elif r < 0.94:
                    msg = "RedisBagOStuff::set mywiki:page:%d" % rng.randrange(10 ** 9)
                else:
                    msg = "RedisBagOStuff::getMulti " + " ".join("key:%d" % rng.randrange(KEYS) for _ in range(5))
                cl.append((t, "%s [%s] appserver3 mywiki 1.39.10 redis DEBUG: %s" % (client_stamp(t), req_id, msg)))
                t = redis_call(t + 0.000015)
            t += lognormal(0.0012, 0.3)
            cl.append((t, "%s [%s] appserver3 mywiki 1.39.10 wfDebug DEBUG: Request ended after %.1f ms" % (client_stamp(t), req_id, (t - t0) * 1000.0)))
            t += lognormal(0.004, 0.5, 0.05)               # idle before the next request

    rl.sort(key=lambda x: x[0])
    cl.sort(key=lambda x: x[0])
    with open(OUT_REDIS, "w", encoding="utf-8") as f:
        f.write("".join(text + "\n" for _, text in rl))
    with open(OUT_CLIENT, "wb") as raw:             # mtime 0 and no name: the same bytes every run
        with gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0, compresslevel=9) as f:
            f.write("".join(text + "\n" for _, text in cl).encode("utf-8"))
    inside = [f for f in forks if client_start < f[0] < client_end]
    print("redis.log: %d lines, %d saves (%d during the client log); client.log.gz: %d lines; episodes per fork: %s"
          % (len(rl), len(forks), len(inside), len(cl), [len(f[2]) for f in inside]), file=sys.stderr)


if __name__ == "__main__":
    main()
