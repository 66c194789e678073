"""A JVM in a container with a 100m CPU limit: its GC pauses also show Real >> User, but the
hsperfdata file is not mapped (-XX:+PerfDisableSharedMem) and the time is CPU throttling.

Mechanism. The pod's CPU limit of 100m gives the container a CFS quota of 10 ms per 100 ms
period. A young collection needs 60-140 ms of CPU; the GC threads burn the quota in the first
10 ms of each period and are throttled for the other 90 ms, so the pause lasts about ten
times its CPU time: "[gc,cpu] GC(n) User=0.09s Sys=0.01s Real=1.02s". The stopped Java threads
stall across it, exactly as in the writeback case, but nothing here waits for a disk: the JVM
runs with -XX:+PerfDisableSharedMem (JAVA_TOOL_OPTIONS, echoed by the launcher at start), so
its counters live in anonymous memory and no hsperfdata page can be under writeback.

Intervals.
* Export job: one item every 0.6-1.0 s (mostly waiting for the database and S3).
* Young GC: every 16-21 s of mutator time; CPU work 60-140 ms, pause = work x 9.5-10.5 under the
  quota (User about 0.9 x work, the rest of the CPU time is Sys).
"""
EXPECT = "no-match"
DESCRIPTION = "kubectl logs of a JDK 17 export job whose pod has a 100m CPU limit: every young GC takes 0.6-1.5 s with User=0.1s (CFS throttling), the item loop stalls across each, but the JVM runs with -XX:+PerfDisableSharedMem, so no hsperfdata page can block"
import random
from datetime import datetime, timedelta, timezone

rnd = random.Random(3302)
T0 = datetime(2026, 11, 29, 1, 55, 0, 0, tzinfo=timezone.utc)
ev = []
seq = [0]


def ms(x):
    return timedelta(milliseconds=x)


def cri(t, stream, line):
    seq[0] += 1
    lag = timedelta(microseconds=rnd.randint(30, 400))
    ev.append((t, seq[0], f'{(t + lag).strftime("%Y-%m-%dT%H:%M:%S.%f")}{rnd.randint(100, 999)}Z {stream} F {line}'))


def app(t, level, logger, msg, trace):
    stamp = t.strftime('%Y-%m-%dT%H:%M:%S.') + f'{t.microsecond // 1000:03d}Z'
    cri(t, 'stdout', f'{stamp} trace_id={trace} span_id={"%016x" % rnd.getrandbits(64)} {level:>5} 1 --- [orders-export] [  export-step-1] {logger[:40]:<40} : {msg}')


def jvm(t, tags, msg):
    stamp = t.strftime('%Y-%m-%dT%H:%M:%S.') + f'{t.microsecond // 1000:03d}+0000'
    cri(t, 'stdout', f'[{stamp}][info][{tags:<6}] {msg}')


SPAN = 300000.0
pauses = []
m = rnd.uniform(6000, 12000)
while m < SPAN:
    work = rnd.uniform(60, 140)
    pauses.append((m, work, work * rnd.uniform(9.5, 10.5)))
    m += rnd.uniform(16000, 21000)


def wall(x):
    return T0 + ms(x + sum(real for a, w, real in pauses if a < x))


cri(T0 - ms(2100), 'stderr', 'Picked up JAVA_TOOL_OPTIONS: -XX:+PerfDisableSharedMem -XX:MaxRAMPercentage=75 -Xlog:gc,gc+cpu:stdout:time,level,tags')
jvm(T0 - ms(1890), 'gc', 'Using G1')
gc = 1
for a, work, real in pauses:
    end = wall(a) + ms(real)
    jvm(end, 'gc', f'GC({gc}) Pause Young (Normal) (G1 Evacuation Pause) {rnd.randint(1500, 1560)}M->{rnd.randint(300, 360)}M(2048M) {real:.3f}ms')
    jvm(end, 'gc,cpu', f'GC({gc}) User={work * 0.9 / 1000:.2f}s Sys={work * 0.1 / 1000:.2f}s Real={real / 1000:.2f}s')
    gc += 1

trace = '%032x' % rnd.getrandbits(128)
x = 150.0
item = 5513000
app(wall(x), 'INFO', 'o.s.batch.core.job.SimpleStepHandler', 'Executing step: [exportInvoices]', trace)
while x < SPAN:
    x += rnd.uniform(600, 1000)
    item += 1
    app(wall(x), 'INFO', 'c.e.export.InvoiceExportWriter', f'exported invoice customer={item} bytes={rnd.randint(9000, 60000)}', trace)

ev.sort(key=lambda e: (e[0], e[1]))
for _, _, line in ev:
    print(line)
