"""The same maintenance script and the same operator's captures (LATENCY LATEST / INFO stats /
LATENCY DOCTOR showing expire-cycle spikes from the mass expiry at 10:15:00, on the hz-20 instance), but run an hour later
from a Kubernetes pod with a CPU limit of 200m: the script's own stalls are CFS throttling, on the
100 ms CFS period, while Redis's crons are short again.

Mechanism and intervals:
  * cpu.max "20000 100000": the pod's cgroup may run 20 ms of CPU per 100 ms period. The script is
    CPU-bound PHP: 2.5-6 ms of CPU per record (log-normal, median 3.8 ms) before each Redis call,
    so it burns the quota after ~5 records and is stopped until the next period starts; it resumes
    within 0.05-0.3 ms of the period boundary. Stalls of 75-85 ms end on a 100 ms clock.
  * Redis: every cron takes 0.2-0.5 ms (no expire backlog any more); a command is answered in
    0.1-0.3 ms.
"""
EXPECT = "no-match"
DESCRIPTION = "the same script and the same expire-cycle LATENCY output, but the script runs under a 200m CPU limit: its 75-85 ms stalls end on the 100 ms CFS period, not on a serverCron beat of 63.3 or 125.8 ms"
import datetime as dt
import math
import random

rng = random.Random(36002)
UTC = dt.timezone.utc
T0 = dt.datetime(2026, 12, 1, 11, 20, 4, 41000, tzinfo=UTC).timestamp()
EXPIRE_AT = dt.datetime(2026, 12, 1, 10, 15, 0, tzinfo=UTC).timestamp()
END = T0 + 6.2
REQ = "b7e90d1f2ac46c38"
out = []


def stamp(t):
    d = dt.datetime.fromtimestamp(t, UTC)
    return d.strftime("%Y-%m-%d %H:%M:%S.") + "%06d" % d.microsecond


def mw(t, msg):
    out.append((t, "%s [%s] mwmaint1002 enwiki 1.41.1 redis DEBUG: %s" % (stamp(t), REQ, msg)))


# the CFS bandwidth periods of the pod's cgroup: 20 ms of CPU per 100 ms
PERIOD, QUOTA = 0.100, 0.020
period_start = T0 - rng.uniform(0.0, PERIOD)
used = 0.0


def run_cpu(t, cpu):
    """Advance wall time by `cpu` seconds of CPU, stopping at the quota until the next period."""
    global period_start, used
    while cpu > 0:
        while t >= period_start + PERIOD:
            period_start += PERIOD
            used = 0.0
        room = QUOTA - used
        if room <= 0:
            period_start += PERIOD
            used = 0.0
            t = period_start + rng.uniform(0.00005, 0.0003)
            continue
        step = min(cpu, room, period_start + PERIOD - t)
        t += step
        used += step
        cpu -= step
    return t


def answered(t_call):
    return t_call + rng.uniform(0.0001, 0.0003)


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
    t = run_cpu(t, 0.0038 * math.exp(rng.gauss(0.0, 0.25)))

out.sort(key=lambda x: x[0])
lines = [text for _, text in out]

# what the operator ran right after, each output piped through `ts '%Y-%m-%d %H:%M:%.S'`
t = END + 1.41
last_spike = dt.datetime(2026, 12, 1, 10, 15, 1, tzinfo=UTC).timestamp()
spell_crons = 29
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
secs = list(range(int(EXPIRE_AT), int(EXPIRE_AT) + 2))
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
