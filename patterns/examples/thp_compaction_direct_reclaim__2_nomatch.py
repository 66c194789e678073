"""The same fragmented 4.14 host and the same kernel reports of fork's order-1 page-table
allocation stalling for 10 s and 20 s, but the forking task is cron (starting a log-shipping job
every few minutes); the Node.js service renders thumbnails in-process with sharp and never forks,
so it keeps answering through the stalls. Output: `journalctl -o short-iso-precise`, then the same
`ts`-stamped THP settings and /proc/vmstat counters.

Mechanism and intervals:
  * As in the match example: free memory only in single pages, an order-1 PGD for every new
    process, direct compaction and reclaim looping for 21-28 s, and warn_alloc's report at 10 s
    and 20 s, now from `cron`.
  * The service allocates from memory it already has (its heap, page-size allocations): it is not
    held up, and finishes a job every 5-10 s after 0.2-1.5 s of work.
"""
EXPECT = "no-match"
DESCRIPTION = "the same fragmented host and the same \"page allocation stalls for ...ms, order:1\" reports from fork, but from cron: the Node.js service, which never forks, keeps logging a job every 5-10 s through them"
import datetime as dt
import json
import random

rng = random.Random(29002)
UTC = dt.timezone.utc
T0 = dt.datetime(2026, 12, 1, 3, 40, 2, 117000, tzinfo=UTC).timestamp()
END = T0 + 1800.0
HOST = "ip-10-0-3-41"
PID = 5188
out = []


def j(t, tag, msg):
    d = dt.datetime.fromtimestamp(t, UTC)
    out.append((t, "%s+00:00 %s %s: %s" % (d.strftime("%Y-%m-%dT%H:%M:%S.%f"), HOST, tag, msg)))


def kernel_dump(t, ms):
    """warn_alloc() output of Linux 4.14 for fork's order-1 PGD allocation that has looped for `ms`."""
    free_pages = rng.randint(37500, 39500)
    lines = [
        "cron: page allocation stalls for %dms, order:1, mode:0x15080c0(GFP_KERNEL_ACCOUNT|__GFP_ZERO), nodemask=(null)" % ms,
        "cron cpuset=/ mems_allowed=0",
        "CPU: %d PID: %d Comm: cron Not tainted 4.14.203-156.332.amzn2.x86_64 #1" % (rng.randint(0, 1), 3057),
        "Hardware name: Amazon EC2 m5.large/, BIOS 1.0 10/16/2017",
        "Call Trace:",
        " dump_stack+0x66/0x82",
        " warn_alloc+0xe0/0x180",
        " __alloc_pages_slowpath+0x7ee/0xc60",
        " __alloc_pages_nodemask+0x227/0x250",
        " __get_free_pages+0xd/0x30",
        " pgd_alloc+0x1d/0x160",
        " mm_init+0x19c/0x200",
        " dup_mm+0x5c/0x4d0",
        " copy_process.part.39+0xb9e/0x1b90",
        " _do_fork+0xe5/0x3f0",
        " SyS_clone+0x16/0x20",
        " do_syscall_64+0x67/0x100",
        " entry_SYSCALL_64_after_hwframe+0x41/0xa6",
        "Mem-Info:",
        "active_anon:1402211 inactive_anon:8843 isolated_anon:0",
        " active_file:219873 inactive_file:201442 isolated_file:0",
        " unevictable:0 dirty:1022 writeback:0 unstable:0",
        " slab_reclaimable:61208 slab_unreclaimable:38841",
        " mapped:20143 shmem:2211 pagetables:5120 bounce:0",
        " free:%d free_pcp:214 free_cma:0" % free_pages,
        "Node 0 DMA32: 9322*4kB (UME) 3*8kB (U) 0*16kB 0*32kB 0*64kB 0*128kB 0*256kB 0*512kB 0*1024kB 0*2048kB 0*4096kB = 37312kB",
        "Node 0 Normal: %d*4kB (UME) 0*8kB 0*16kB 0*32kB 0*64kB 0*128kB 0*256kB 0*512kB 0*1024kB 0*2048kB 0*4096kB = %dkB" % (free_pages - 9328, (free_pages - 9328) * 4),
        "Node 0 hugepages_total=0 hugepages_free=0 hugepages_surp=0 hugepages_size=2048kB",
        "421315 total pagecache pages",
        "0 pages in swap cache",
        "Swap cache stats: add 0, delete 0, find 0/0",
        "Free swap  = 0kB",
        "Total swap = 0kB",
        "2097022 pages RAM",
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
        if t <= a < done:                   # cron's fork stalls; the service goes on
            for k in (1, 2):
                if a + 10.0 * k + 0.2 < b:
                    at = a + 10.0 * k + rng.uniform(0.01, 0.12)   # the next pass of the retry loop
                    kernel_dump(at, int((at - a) * 1000))
    rec = {"level": 30, "time": int(done * 1000), "pid": PID, "hostname": HOST, "job": job,
           "msg": "thumbnail written", "sizes": [160, 320, 640], "ms": round((done - t) * 1000)}
    j(done, "node[%d]" % PID, json.dumps(rec, separators=(",", ":")))
    t = done + rng.uniform(5.0, 10.0)

# what the operator ran afterwards, piped through `ts '%Y-%m-%dT%H:%M:%.S'`:
# cat /sys/kernel/mm/transparent_hugepage/{enabled,defrag}; grep -E '^(compact|thp_fault)' /proc/vmstat
t = END + 41.3
snap = ["[always] madvise never", "[always] defer defer+madvise madvise never",
        "compact_migrate_scanned 9021833410", "compact_free_scanned 31877012244", "compact_isolated 402118873",
        "compact_stall %d" % rng.randint(180000, 190000), "compact_fail %d" % rng.randint(170000, 179000),
        "compact_success %d" % rng.randint(9000, 11000), "compact_daemon_wake 88213",
        "thp_fault_alloc %d" % rng.randint(9000000, 9300000), "thp_fault_fallback %d" % rng.randint(400000, 420000)]
for x in snap:
    d = dt.datetime.fromtimestamp(t, UTC)
    out.append((t, d.strftime("%Y-%m-%dT%H:%M:%S.%f") + " " + x))
    t += rng.uniform(0.00001, 0.0004)

out.sort(key=lambda x: x[0])
print("\n".join(text for _, text in out))
