"""The same queue worker and the same kind of 21-28 s silences with the kernel's stall reports in
them, on a host without swap: a Java service has taken most of the 8 GB as heap, so the worker's
file-backed pages (the Python interpreter, its libraries, an mmapped index) are evicted and read
back over and over. The kernel reports allocations for page-cache readahead, `Total swap = 0kB`:
memory pressure, but not swapping. Output: `journalctl -o short-iso-precise`, then the operator's
`ts`-stamped /proc/vmstat swap counters (zero) and VmSwap.

Mechanism and intervals:
  * Without swap, reclaim can only drop page cache; the worker's code and mmapped data are
    re-read from disk on every fault (filemap_fault -> readahead), and each readahead page needs
    a free page first: direct reclaim, behind every other faulting task.
  * Linux 4.9 reports the allocation still looping after 10 s and again after 20 s (warn_alloc),
    from the stalled task itself: mode GFP_HIGHUSER_MOVABLE|__GFP_COLD, the page-cache gfp.
  * The worker takes a job every 5-10 s, works 0.2-1.5 s and logs one line per job; twice in
    30 min a job stalls for 21-28 s.
"""
EXPECT = "no-match"
DESCRIPTION = "the same 21-28 s silences with \"page allocation stalls for ...ms, order:0\" reports, on a host without swap (Total swap = 0kB) where the stalled faults are page-cache readahead (filemap_fault): memory pressure without swapping"
import datetime as dt
import random

rng = random.Random(30002)
UTC = dt.timezone.utc
T0 = dt.datetime(2026, 12, 1, 3, 40, 2, 117000, tzinfo=UTC).timestamp()
END = T0 + 1800.0
HOST = "jobs5"
PID = 2311
out = []


def j(t, tag, msg):
    d = dt.datetime.fromtimestamp(t, UTC)
    out.append((t, "%s+00:00 %s %s: %s" % (d.strftime("%Y-%m-%dT%H:%M:%S.%f"), HOST, tag, msg)))


def kernel_dump(t, ms):
    """warn_alloc() output of Linux 4.9 for a page-cache allocation that has looped for `ms`."""
    free_pages = rng.randint(30500, 33500)
    lines = [
        "python3: page allocation stalls for %dms, order:0, mode:0x24201ca(GFP_HIGHUSER_MOVABLE|__GFP_COLD)" % ms,
        "python3 cpuset=/ mems_allowed=0",
        "CPU: %d PID: %d Comm: python3 Not tainted 4.9.0-8-amd64 #1 Debian 4.9.144-3.1" % (rng.randint(0, 3), PID),
        "Hardware name: QEMU Standard PC (i440FX + PIIX, 1996), BIOS 1.10.2-1 04/01/2014",
        " 0000000000000000 ffffffff9b53d2a4 ffffffff9bc01e78 ffffa6c8c0f3fb48",
        " ffffffff9b38a24b 024201ca00000000 ffffffff9bc01e78 ffffa6c8c0f3fae8",
        " 0000000000000010 ffffa6c8c0f3fb58 ffffa6c8c0f3fb08 8f1d2a6c3e4b5a70",
        "Call Trace:",
        " [<ffffffff9b53d2a4>] ? dump_stack+0x5c/0x78",
        " [<ffffffff9b38a24b>] ? warn_alloc+0x13b/0x170",
        " [<ffffffff9b38ac68>] ? __alloc_pages_slowpath+0x948/0xbd0",
        " [<ffffffff9b38b0e9>] ? __alloc_pages_nodemask+0x209/0x260",
        " [<ffffffff9b3d9e15>] ? alloc_pages_current+0x95/0x140",
        " [<ffffffff9b37f75f>] ? __page_cache_alloc+0xcf/0xf0",
        " [<ffffffff9b38fa7d>] ? __do_page_cache_readahead+0x10d/0x2d0",
        " [<ffffffff9b3803ec>] ? filemap_fault+0x3ec/0x6c0",
        " [<ffffffffc03a8b31>] ? ext4_filemap_fault+0x31/0x50 [ext4]",
        " [<ffffffff9b3b5837>] ? __do_fault+0x77/0x110",
        " [<ffffffff9b3bcb5c>] ? handle_mm_fault+0xcfc/0x1340",
        " [<ffffffff9b26125c>] ? __do_page_fault+0x25c/0x500",
        " [<ffffffff9b818e68>] ? page_fault+0x28/0x30",
        "Mem-Info:",
        "active_anon:1889612 inactive_anon:4127 isolated_anon:0",
        " active_file:402 inactive_file:511 isolated_file:64",
        " unevictable:0 dirty:0 writeback:0 unstable:0",
        " slab_reclaimable:7713 slab_unreclaimable:12876",
        " mapped:622 shmem:1191 pagetables:6215 bounce:0",
        " free:%d free_pcp:12 free_cma:0" % free_pages,
        "Node 0 Normal: 1188*4kB (UME) 694*8kB (UME) 331*16kB (UME) 77*32kB (UM) 15*64kB (UM) 4*128kB (M) 2*256kB (M) 0*512kB 0*1024kB 0*2048kB 0*4096kB = 23344kB",
        "2105 total pagecache pages",
        "0 pages in swap cache",
        "Swap cache stats: add 0, delete 0, find 0/0",
        "Free swap  = 0kB",
        "Total swap = 0kB",
        "2097018 pages RAM",
    ]
    for text in lines:                     # one printk burst, stamped by journald as it reads it
        j(t, "kernel", text)
        t += rng.uniform(0.000002, 0.00003)


stalls = []
for at in (T0 + rng.uniform(420, 520), T0 + rng.uniform(1260, 1380)):
    stalls.append((at, at + rng.uniform(21.0, 28.0)))

t = T0
job = 88120
while t < END:
    job += 1
    work = rng.uniform(0.2, 1.5)
    done = t + work
    for a, b in stalls:
        if t <= a < done or a <= t < b:
            done = b + work * rng.uniform(0.2, 0.8)
            for k in (1, 2):
                if a + 10.0 * k + 0.2 < b:
                    at = a + 10.0 * k + rng.uniform(0.01, 0.12)   # the next pass of the retry loop
                    kernel_dump(at, int((at - a) * 1000))
    j(done, "worker[%d]" % PID, "INFO job %d queue=thumbnails done in %.2fs" % (job, done - t))
    t = done + rng.uniform(5.0, 10.0)

# what the operator ran afterwards, piped through `ts '%Y-%m-%dT%H:%M:%.S'`:
# grep -E '^(pswpin|pswpout|pgmajfault) ' /proc/vmstat; grep VmSwap /proc/2311/status
t = END + 37.9
snap = ["pswpin 0", "pswpout 0", "pgmajfault %d" % rng.randint(310000000, 320000000), "VmSwap:\t0 kB"]
for x in snap:
    d = dt.datetime.fromtimestamp(t, UTC)
    out.append((t, d.strftime("%Y-%m-%dT%H:%M:%S.%f") + " " + x))
    t += rng.uniform(0.00001, 0.0004)

out.sort(key=lambda x: x[0])
print("\n".join(text for _, text in out))
