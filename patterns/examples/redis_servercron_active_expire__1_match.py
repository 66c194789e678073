"""Redis 7.0 serving a PHP fleet with 2 600 persistent connections: `hz 10` with the default
`dynamic-hz yes` runs serverCron at hz 20. 0.9 million promotion tokens were created with the same
`EXPIREAT` (10:15:00), and from that second the active expire cycle runs to its time limit in every
cron. Output: the DEBUG log of a MediaWiki maintenance script calling that Redis (one request id for
the whole run) over the two seconds around 10:15:00, followed by what the operator captured right
after it with one `{ redis-cli LATENCY LATEST; redis-cli INFO stats | grep expire; redis-cli
LATENCY DOCTOR; } | ts '%Y-%m-%d %H:%M:%.S'` (raw output, as redis-cli prints it into a pipe).

Mechanism and intervals:
  * dynamic-hz doubles hz while clients / hz > 200 (MAX_CLIENTS_PER_CLOCK_TICK): 2 600 clients
    give hz 20, a cron period of 1000/20 = 50 ms.
  * serverCron is a time event; ae computes the next run from the moment the callback returns
    (te->when = now + 50 ms, `now` taken after it), and epoll_wait rounds its timeout up to a whole
    ms, so a cron starts 50-51 ms after the previous one ENDED.
  * Before 10:15:00 a cron takes 0.2-0.5 ms. From the first cron after it, activeExpireCycle
    (ACTIVE_EXPIRE_CYCLE_SLOW) finds far more than 10 % of the sampled keys expired and loops until
    its time limit, 25 % of the cron period = 12.5 ms (it checks the clock every 16 iterations, so
    it overruns by < 0.1 ms), plus 0.1-0.5 ms of the cron's other work: the end-to-end cycle is
    50.5 + 12.8 ~= 63.3 ms, and it stays so until the stale share falls below 10 %, 1.75-1.85 s
    later. Between crons, beforeSleep's fast cycles (at most 1 ms, at most every 2 ms) add 0-1 ms to
    half the commands.
  * A command that arrives during a cron is answered when the cron returns, plus 0.05-0.5 ms of
    queue drain: the stalls of 5-13 ms all end on the cron's clock. Otherwise 0.1-0.3 ms.
  * The script: a tight loop, one command after each 2.1-3.2 ms of its own work (log-normal,
    median 2.6 ms), so that only the cron stalls leave gaps of 5 ms or more.
  * LATENCY keeps one sample per second (the max), hence 2 spikes over the ~1.8 s spell; INFO's
    expired_time_cap_reached_count counts the cycles that stopped at the time limit.
"""
EXPECT = "match"
DESCRIPTION = "a maintenance script's Redis calls stall 5-13 ms in every serverCron for ~1.8 s after 0.9 million keys expire in the same second, on a Redis whose dynamic-hz runs the cron at hz 20: the stalls end on a 63.3 ms clock (50 ms + the expire cycle's 12.5 ms time limit), and LATENCY / INFO output captured afterwards shows expire-cycle spikes"
import datetime as dt
import math
import random

rng = random.Random(36001)
UTC = dt.timezone.utc
T0 = dt.datetime(2026, 12, 1, 10, 14, 59, 871000, tzinfo=UTC).timestamp()
EXPIRE_AT = dt.datetime(2026, 12, 1, 10, 15, 0, tzinfo=UTC).timestamp()
END = T0 + 2.0
REQ = "b7e90d1f2ac46c38"
out = []


def stamp(t):
    d = dt.datetime.fromtimestamp(t, UTC)
    return d.strftime("%Y-%m-%d %H:%M:%S.") + "%06d" % d.microsecond


def mw(t, msg):
    out.append((t, "%s [%s] mwmaint1002 enwiki 1.41.1 redis DEBUG: %s" % (stamp(t), REQ, msg)))


# serverCron: start of each run, end of each run
crons = []
s = T0 - rng.uniform(0.0, 0.05)
spell_end = None
while s < END + 1:
    if s >= EXPIRE_AT and spell_end is None:
        spell_end = s + rng.uniform(1.75, 1.85)
    in_spell = spell_end is not None and s < spell_end
    d = (0.0125 + rng.uniform(0.0, 0.0001) + rng.uniform(0.0001, 0.0005)) if in_spell else rng.uniform(0.0002, 0.0005)
    crons.append((s, s + d, in_spell))
    s = s + d + 0.050 + rng.uniform(0.0, 0.001)
spell_crons = sum(1 for c in crons if c[2])


def answered(t_call):
    for a, b, _ in crons:
        if a <= t_call < b:
            return b + rng.uniform(0.00005, 0.0005)
    extra = 0.0
    if spell_end is not None and EXPIRE_AT <= t_call < spell_end and rng.random() < 0.5:
        extra = rng.uniform(0.0, 0.001)            # behind a fast expire cycle
    return t_call + extra + rng.uniform(0.0001, 0.0003)


t = T0
page = 812000
while t < END:
    r = rng.random()
    if r < 0.7:
        msg = "RedisBagOStuff::get key:enwiki:page-props:%d" % rng.randrange(1, 70000000)
    elif r < 0.9:
        msg = "RedisBagOStuff::set enwiki:page-props:%d" % rng.randrange(1, 70000000)
    else:
        msg = "RedisBagOStuff::getMulti " + " ".join("enwiki:page-props:%d" % rng.randrange(1, 70000000) for _ in range(4))
    mw(t, msg)
    t = answered(t + 0.00002)
    t += 0.0026 * math.exp(rng.gauss(0.0, 0.12))

out.sort(key=lambda x: x[0])
lines = [text for _, text in out]

# what the operator ran right after, each output piped through `ts '%Y-%m-%d %H:%M:%.S'`
t = END + 1.37
last_spike = max(b for a, b, sp in crons if sp)
raw = ["expire-cycle", "%d" % int(last_spike), "12", "13"]
for x in raw:
    lines.append("%s %s" % (stamp(t), x))
    t += rng.uniform(0.000003, 0.00003)
t += rng.uniform(0.0015, 0.003)
for x in ["expired_keys:%d" % (spell_crons * 31400 + rng.randint(0, 9000)),
          "expired_stale_perc:%.2f" % rng.uniform(8.2, 9.9),
          "expired_time_cap_reached_count:%d" % spell_crons,
          "expire_cycle_cpu_milliseconds:%d" % int(spell_crons * 12.9 + rng.uniform(300, 500))]:
    lines.append("%s %s" % (stamp(t), x))
    t += rng.uniform(0.000003, 0.00003)
t += rng.uniform(0.0015, 0.003)
secs = sorted({int(a) for a, b, sp in crons if sp})
period = (int(t) - secs[0]) / len(secs)
for x in ["Dave, I have observed latency spikes in this Redis instance. You don't mind talking about it, do you Dave?",
          "",
          "1. expire-cycle: %d latency spikes (average 12ms, mean deviation 0ms, period %.2f sec). Worst all time event 13ms." % (len(secs), period),
          "",
          "I have a few advices for you:",
          "",
          "- In order to make the Redis keys expiring process more incremental, try to set the 'hz' configuration parameter to 100 using 'CONFIG SET hz 100'.",
          "- Deleting, expiring or evicting (because of maxmemory policy) large objects is a blocking operation. If you have very large objects that are often deleted, expired, or evicted, try to fragment those objects into multiple smaller objects."]:
    lines.append(("%s %s" % (stamp(t), x)).rstrip())
    t += rng.uniform(0.000003, 0.00003)
print("\n".join(lines))
