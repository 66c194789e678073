"""A Spring Batch job on JDK 17 (G1): every young-GC pause stops the item loop for 60-72 ms.

Mechanism. A G1 young collection is a stop-the-world pause: the VM thread brings every Java
thread to a safepoint, evacuates the young regions and only then lets the threads run again.
The batch job's single worker thread enriches one item at a time (an HTTP call to the pricing
service) and logs a line per item, so a pause shows as one long gap in its otherwise even
stream, ending just after the pause. The application logs with Spring Boot's console pattern, the OpenTelemetry agent's trace_id
in front of the level. The JVM logs with -Xlog:gc,gc+cpu,safepoint:stdout:
time,level,tags: the "[gc] GC(n) Pause Young ..." line and the "[gc,cpu]" line are written at
the end of the pause, the "[safepoint]" line when the threads are released (JDK 17 format:
Reaching safepoint, At safepoint, Total, in ns). The pod's stdout is read through the CRI
log (kubectl logs / /var/log/pods). The job allocates ~3 GB/s into a 12 GB eden and keeps a
large live set of reference data, so each young pause copies several hundred MB of survivors.

Intervals.
* Item loop: pricing call 45-55 ms (a cached lookup behind a pooled connection), then the log
  line (median gap ~50 ms); every 50 items a
  chunk commit of 3-6 ms.
* Young GC: eden fills every 3.7-4.1 s of mutator time; pause 60-72 ms (8 workers, User about
  7x Real); time to safepoint 0.05-0.4 ms; the safepoint line 0.05-0.2 ms after the GC line.
* The worker resumes 0.05-0.3 ms after the safepoint ends; its gap = the part of the item done
  before the pause + the pause + the rest.
* Liveness probes: a 2-line request every ~8 s.
"""
EXPECT = "match"
DESCRIPTION = "kubectl logs of a Spring Batch job on JDK 17 (G1, -Xlog:gc,gc+cpu,safepoint:stdout): the item loop logs every ~50 ms, and each of five \"Pause Young (Normal) … 60-72 ms\" pauses leaves one 105-125 ms gap in it that ends just after the GC line"
import random
from datetime import datetime, timedelta, timezone

rnd = random.Random(34)
T0 = datetime(2026, 11, 29, 3, 0, 0, 0, tzinfo=timezone.utc)
ev = []
seq = [0]


def ms(x):
    return timedelta(milliseconds=x)


def cri(t, line):
    seq[0] += 1
    lag = timedelta(microseconds=rnd.randint(30, 400))   # containerd reads the pipe a little later
    ev.append((t, seq[0], f'{(t + lag).strftime("%Y-%m-%dT%H:%M:%S.%f")}{rnd.randint(100, 999)}Z stdout F {line}'))


def app(t, level, logger, thread, msg, trace=None):
    # Spring Boot 3 console pattern with logging.pattern.level = "trace_id=%mdc{trace_id} span_id=%mdc{span_id} %5p"
    stamp = t.strftime('%Y-%m-%dT%H:%M:%S.') + f'{t.microsecond // 1000:03d}Z'
    ids = f'trace_id={trace} span_id={"%016x" % rnd.getrandbits(64)}' if trace else 'trace_id= span_id='
    cri(t, f'{stamp} {ids} {level:>5} 1 --- [price-batch] [{thread[-15:]:>15}] {logger[:40]:<40} : {msg}')


def jvm(t, tags, msg):
    stamp = t.strftime('%Y-%m-%dT%H:%M:%S.') + f'{t.microsecond // 1000:03d}+0000'
    cri(t, f'[{stamp}][info][{tags:<9}] {msg}')


# young GCs in mutator time (the time the Java threads get to run)
SPAN = 19500.0
pauses = []                      # (mutator time at which the pause starts, length in ms)
m = rnd.uniform(900, 1500)
while m < SPAN:
    pauses.append((m, rnd.uniform(60, 72)))
    m += rnd.uniform(3700, 4100)


def wall(x):
    """Wall-clock time of mutator time x: every pause that began before x has stopped it."""
    return T0 + ms(x + sum(d for a, d in pauses if a < x))


gc = 41
last_sp = 0.0
for a, d in pauses:
    start = wall(a)          # the pause begins here (threads reach the safepoint)
    reach = rnd.uniform(0.05, 0.4)
    end = start + ms(d)
    before = rnd.randint(13900, 14600)
    after = rnd.randint(5800, 6600)
    workers = 8
    jvm(end, 'gc', f'GC({gc}) Pause Young (Normal) (G1 Evacuation Pause) {before}M->{after}M(24576M) {d - reach:.3f}ms')
    jvm(end, 'gc,cpu', f'GC({gc}) User={(d / 1000) * workers * rnd.uniform(0.8, 0.95):.2f}s Sys={(d / 1000) * rnd.uniform(0.05, 0.3):.2f}s Real={d / 1000:.2f}s')
    since = (a - last_sp) * 1e6
    jvm(end + ms(rnd.uniform(0.05, 0.2)), 'safepoint',
        f'Safepoint "G1CollectForAllocation", Time since last: {since:.0f} ns, Reaching safepoint: {reach * 1e6:.0f} ns, '
        f'At safepoint: {(d - reach) * 1e6:.0f} ns, Total: {d * 1e6:.0f} ns')
    last_sp = a + d
    gc += 1

# the batch job: one worker thread, one trace (the job execution)
trace = '%032x' % rnd.getrandbits(128)
x = 120.0
app(wall(x), 'INFO', 'o.s.batch.core.job.SimpleStepHandler', 'main', 'Executing step: [enrichPrices]', trace)
item = 881200
n = 0
while x < SPAN:
    x += rnd.uniform(45, 55) + (rnd.uniform(0.05, 0.3) if any(a < x <= a + 60 for a, _ in pauses) else 0)
    n += 1
    item += 1
    app(wall(x), 'DEBUG', 'c.e.batch.PriceEnrichmentProcessor', 'main', f'enriched sku={item} price source=pricing-svc', trace)
    if n % 50 == 0:
        x += rnd.uniform(3, 6)
        app(wall(x), 'INFO', 'o.s.batch.core.step.item.ChunkOrientedTasklet', 'main', f'Chunk committed: {n} items written', trace)

# kubelet liveness probes
x = rnd.uniform(500, 3000)
while x < SPAN:
    tr = '%032x' % rnd.getrandbits(128)
    app(wall(x), 'DEBUG', 'o.s.web.servlet.DispatcherServlet', 'http-nio-8080-exec-2', 'GET "/actuator/health/liveness", parameters={}', tr)
    x += rnd.uniform(1.5, 3.0)
    app(wall(x), 'DEBUG', 'o.s.web.servlet.DispatcherServlet', 'http-nio-8080-exec-2', 'Completed 200 OK', tr)
    x += rnd.uniform(7000, 9000)

ev.sort(key=lambda e: (e[0], e[1]))
for _, _, line in ev:
    print(line)
