"""A queue worker on a Debian 9 host (kernel 4.9, 8 GB RAM, 4 GB swap on the same disk) whose
memory has been pushed out to swap by a neighbour: twice in 30 minutes the box thrashes, the
worker's page faults wait for swap-ins that themselves wait for free pages, and the kernel reports
the stalled allocation. Output: `journalctl -o short-iso-precise` of the host, kernel and worker
lines interleaved, then what the operator ran afterwards through `ts` (the swap counters of
/proc/vmstat and the worker's VmSwap).

Mechanism and intervals:
  * A nightly `convert` batch grows to ~6 GB resident: free memory is gone, and the worker's idle
    heap (~1.5 GB of Python objects touched only now and then) is swapped out.
  * When a job touches swapped-out pages, do_swap_page() -> swapin_readahead() allocates a page
    for each swap-in; with no free pages the allocation itself runs direct reclaim, which has to
    swap something else out first, on the same disk: a fault takes seconds, and a job that walks
    its heap stalls for 21-28 s in a row.
  * Linux 4.9-4.14 report an allocation still looping after 10 s (warn_alloc in
    __alloc_pages_slowpath; stall_timeout starts at 10 s and grows by 10 s), printed by the stalled
    task itself with its call trace and the memory summary, so the lines appear 10 s and 20 s
    into each stall while the worker is silent.
  * Outside the thrashing the worker takes a job every 5-10 s (uniform) from a quiet queue, works
    0.2-1.5 s on it and logs one line when it is done.
"""
EXPECT = "match"
DESCRIPTION = "journalctl of a thrashing Debian 9 host: a queue worker goes silent for 21-28 s twice in 30 min, and 10 s and 20 s into each silence the kernel reports \"python3: page allocation stalls for ...ms, order:0\" with do_swap_page / swapin_readahead in the call trace and swap in use"
import datetime as dt
import random

rng = random.Random(30001)
UTC = dt.timezone.utc
T0 = dt.datetime(2026, 12, 1, 3, 40, 2, 117000, tzinfo=UTC).timestamp()
END = T0 + 1800.0
HOST = "jobs3"
PID = 2311
out = []


def j(t, tag, msg):
    d = dt.datetime.fromtimestamp(t, UTC)
    out.append((t, "%s+00:00 %s %s: %s" % (d.strftime("%Y-%m-%dT%H:%M:%S.%f"), HOST, tag, msg)))


def kernel_dump(t, ms):
    """warn_alloc() output of Linux 4.9 for a swap-in allocation that has looped for `ms`."""
    free_pages = rng.randint(30500, 33500)
    lines = [
        "python3: page allocation stalls for %dms, order:0, mode:0x24200ca(GFP_HIGHUSER_MOVABLE)" % ms,
        "python3 cpuset=/ mems_allowed=0",
        "CPU: %d PID: %d Comm: python3 Not tainted 4.9.0-8-amd64 #1 Debian 4.9.144-3.1" % (rng.randint(0, 3), PID),
        "Hardware name: QEMU Standard PC (i440FX + PIIX, 1996), BIOS 1.10.2-1 04/01/2014",
        " 0000000000000000 ffffffffa833d2a4 ffffffffa8a01e78 ffffb8a0c1b3fb30",
        " ffffffffa818a24b 024200ca00000000 ffffffffa8a01e78 ffffb8a0c1b3fad0",
        " 0000000000000010 ffffb8a0c1b3fb40 ffffb8a0c1b3faf0 a4f6c06b3b2a1f30",
        "Call Trace:",
        " [<ffffffffa833d2a4>] ? dump_stack+0x5c/0x78",
        " [<ffffffffa818a24b>] ? warn_alloc+0x13b/0x170",
        " [<ffffffffa818ac68>] ? __alloc_pages_slowpath+0x948/0xbd0",
        " [<ffffffffa818b0e9>] ? __alloc_pages_nodemask+0x209/0x260",
        " [<ffffffffa81dc93c>] ? alloc_pages_vma+0xac/0x260",
        " [<ffffffffa81d0625>] ? __read_swap_cache_async+0x115/0x1a0",
        " [<ffffffffa81d06d4>] ? read_swap_cache_async+0x24/0x60",
        " [<ffffffffa81d088c>] ? swapin_readahead+0x16c/0x200",
        " [<ffffffffa81ba9e7>] ? do_swap_page+0x287/0x720",
        " [<ffffffffa81bc74c>] ? handle_mm_fault+0x8ec/0x1340",
        " [<ffffffffa806125c>] ? __do_page_fault+0x25c/0x500",
        " [<ffffffffa8618e68>] ? page_fault+0x28/0x30",
        "Mem-Info:",
        "active_anon:1512838 inactive_anon:377301 isolated_anon:96",
        " active_file:1227 inactive_file:1409 isolated_file:32",
        " unevictable:0 dirty:0 writeback:224 unstable:0",
        " slab_reclaimable:8765 slab_unreclaimable:13021",
        " mapped:1518 shmem:1176 pagetables:11472 bounce:0",
        " free:%d free_pcp:31 free_cma:0" % free_pages,
        "Node 0 Normal: 1301*4kB (UME) 722*8kB (UME) 315*16kB (UME) 81*32kB (UME) 17*64kB (UM) 5*128kB (M) 2*256kB (M) 0*512kB 0*1024kB 0*2048kB 0*4096kB = 24436kB",
        "4389 total pagecache pages",
        "%d pages in swap cache" % rng.randint(900, 2400),
        "Swap cache stats: add %d, delete %d, find %d/%d" % (8734211 + ms, 8733215 + ms, 1320331 + ms // 3, 2598112 + ms // 2),
        "Free swap  = %dkB" % rng.randint(1200, 9000),
        "Total swap = 4194300kB",
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
snap = ["pswpin %d" % rng.randint(81000000, 82000000), "pswpout %d" % rng.randint(95000000, 97000000), "pgmajfault %d" % rng.randint(120000000, 125000000), "VmSwap:\t%d kB" % rng.randint(1300000, 1500000)]
for x in snap:
    d = dt.datetime.fromtimestamp(t, UTC)
    out.append((t, d.strftime("%Y-%m-%dT%H:%M:%S.%f") + " " + x))
    t += rng.uniform(0.00001, 0.0004)

out.sort(key=lambda x: x[0])
print("\n".join(text for _, text in out))
