"""The same Spring Batch job after GC tuning: young pauses of 4-9 ms, and the item loop's
150-250 ms gaps are slow answers of the pricing service at other moments.

Mechanism. With a smaller eden (and G1's pause-time goal met) each young collection copies
little and pauses the threads for only 4-9 ms, every ~1.8 s: the item loop's gaps (35-60 ms)
hardly change. The job still shows five long gaps: the pricing service's own GC or a cold cache
makes a few calls take 150-250 ms. They are as long as the GC stalls of the match example, but
they fall between the GC lines, and every GC line sits in an ordinary gap.

Intervals.
* Item loop: pricing call 35-60 ms (five calls of 150-250 ms at random items); chunk commit 3-6 ms
  every 50 items.
* Young GC: every 1.6-2.0 s of mutator time, pause 4-9 ms (User about 6x Real).
* Liveness probes: a 2-line request every ~8 s.
"""
EXPECT = "no-match"
DESCRIPTION = "the same Spring Batch job after GC tuning: \"Pause Young\" lines every ~1.8 s report 4-9 ms pauses, and the item loop's five 150-250 ms gaps are slow pricing-service calls that fall between the GC lines"
import random
from datetime import datetime, timedelta, timezone

rnd = random.Random(3402)
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
SPAN = 17500.0
pauses = []                      # (mutator time at which the pause starts, length in ms)
m = rnd.uniform(300, 900)
while m < SPAN:
    pauses.append((m, rnd.uniform(4, 9)))
    m += rnd.uniform(1600, 2000)


def wall(x):
    """Wall-clock time of mutator time x: every pause that began before x has stopped it."""
    return T0 + ms(x + sum(d for a, d in pauses if a < x))


gc = 41
last_sp = 0.0
for a, d in pauses:
    start = wall(a)          # the pause begins here (threads reach the safepoint)
    reach = rnd.uniform(0.05, 0.4)
    end = start + ms(d)
    before = rnd.randint(7100, 7400)
    after = rnd.randint(5800, 6100)
    workers = 8
    jvm(end, 'gc', f'GC({gc}) Pause Young (Normal) (G1 Evacuation Pause) {before}M->{after}M(24576M) {d - reach:.3f}ms')
    jvm(end, 'gc,cpu', f'GC({gc}) User={(d / 1000) * workers * rnd.uniform(0.7, 0.8):.2f}s Sys={(d / 1000) * rnd.uniform(0.05, 0.3):.2f}s Real={d / 1000:.2f}s')
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
slow = set(rnd.sample(range(20, 330), 5))
while x < SPAN:
    x += rnd.uniform(150, 250) if n in slow else rnd.uniform(35, 60)
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
