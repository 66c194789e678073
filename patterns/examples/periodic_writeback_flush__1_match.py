"""An ingest API that fsyncs its append-only journal on every request shares an ext4 volume
(data=ordered, the default commit=5) with a nightly export that writes 22 MB/s through the page
cache. Every 5 s the journal commit has to write the export's ordered data first, and an fsync that
lands in it waits for the whole commit. Output: the API's DEBUG log (logfmt, one request id per
request, two lines per request).

Mechanism and intervals:
  * jbd2 arms the commit timer when a transaction starts: t_expires = start + j_commit_interval
    (5 s). On a busy file system the next transaction starts within milliseconds of the previous
    commit, so commits start every 5.000-5.004 s, a clock that drifts by a few ms a period.
  * In data=ordered mode the commit first writes the data blocks allocated in the transaction:
    ~5 s x 22 MB/s = 110 MB of the export's data, 0.8-1.2 s on a volume that writes ~110 MB/s.
  * The API's fsync() waits for the commit that holds its inode's changes. Outside a commit it
    takes 0.6-3 ms (its own small transaction). One issued while a 5 s commit is writing waits for
    that commit to end; jbd2 then wakes all waiters at once and commits the running transaction
    that holds their changes (1-3 ms, shared), so every fsync caught by a commit returns within
    0.15 ms of the others: stalls of up to 1.2 s whose ends keep the 5 s clock.
  * Requests arrive as a Poisson stream at ~2.5 per second; between "appended" and "committed" lies
    only the fsync.
"""
EXPECT = "match"
DESCRIPTION = "an ingest API fsyncs its journal per request on an ext4 volume that an export job fills at 22 MB/s: fsyncs that land in the 5 s journal commit wait 0.01-1.2 s for it, and the stalls end on a 5 s clock"
import datetime as dt
import random

rng = random.Random(31001)
UTC = dt.timezone.utc
T0 = dt.datetime(2026, 12, 1, 2, 10, 3, 418000, tzinfo=UTC).timestamp()
END = T0 + 192.0
out = []


def line(t, rid, msg):
    d = dt.datetime.fromtimestamp(t, UTC)
    out.append((t, d.strftime("%Y-%m-%dT%H:%M:%S.%fZ") + " level=debug request_id=%s %s" % (rid, msg)))


commits = []                 # (start, end, end of the follow-up commit that the waiters share)
s = T0 + rng.uniform(0.5, 4.5)
while s < END + 6:
    e = s + rng.uniform(0.8, 1.2)
    commits.append((s, e, e + rng.uniform(0.001, 0.003)))
    s += 5.0 + rng.uniform(0.0, 0.004)


def fsync_done(t):
    for a, b, c in commits:
        if a <= t < b:
            return c + rng.uniform(0.00001, 0.00015)   # woken together, scheduled in turn
    return t + rng.uniform(0.0006, 0.003)


t = T0
seg = 187
offset = 48_112_640
while True:
    t += rng.expovariate(2.5)
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
