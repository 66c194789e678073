"""The same ingest API and the same ext4 volume, but the export now writes 160 MB/s, more than
the volume takes: dirty pages stay above dirty_background_ratio, the flusher writes back all the
time instead of every 5 s, and every fsync waits behind whatever is queued on the device at that
moment. Output: the API's DEBUG log (logfmt, one request id per request, two lines per request).

Mechanism and intervals:
  * Continuous background writeback keeps 30-120 MB queued on the device: an fsync's own small
    commit waits behind it for a random 40-950 ms (log-uniform), with no 5 s rhythm: the journal
    commits are forced by the fsyncs themselves and start whenever they arrive.
  * Requests arrive as a Poisson stream at ~1 per second.
"""
EXPECT = "no-match"
DESCRIPTION = "the same fsync-per-request API while an export saturates the volume: every fsync waits 40-950 ms behind continuous writeback, with no 5 s clock in the stall ends"
import datetime as dt
import math
import random

rng = random.Random(31002)
UTC = dt.timezone.utc
T0 = dt.datetime(2026, 12, 1, 2, 10, 3, 418000, tzinfo=UTC).timestamp()
END = T0 + 160.0
out = []


def line(t, rid, msg):
    d = dt.datetime.fromtimestamp(t, UTC)
    out.append((t, d.strftime("%Y-%m-%dT%H:%M:%S.%fZ") + " level=debug request_id=%s %s" % (rid, msg)))


def fsync_done(t):
    return t + math.exp(rng.uniform(math.log(0.040), math.log(0.950)))


t = T0
seg = 187
offset = 48_112_640
while True:
    t += rng.expovariate(1.05)
    if t >= END:
        break
    rid = "%016x" % rng.getrandbits(64)
    n = rng.randint(200, 6000)
    line(t, rid, 'msg="appended, fsync" stream=orders file=/var/lib/ingest/journal/%06d.log offset=%d bytes=%d' % (seg, offset, n))
    offset += n
    done = fsync_done(t + rng.uniform(0.00002, 0.00008))
    line(done, rid, 'msg="committed" stream=orders fsync_ms=%.1f' % ((done - t) * 1000))

out.sort(key=lambda x: x[0])
print("\n".join(text for _, text in out))
