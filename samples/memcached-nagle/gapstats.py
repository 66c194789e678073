#!/usr/bin/env python3
"""gapstats.py: per-request gap figures for the memcached Nagle sample logs.

Reads logs in the WMF Monolog line format written by mwcache.php, groups lines by reqId
(file order within a request is time order: one process writes each request) and prints
the gaps between consecutive lines of the same request, split by what precedes them.

Ground truth comes from the workload's rule (see README.md): set, delete, add and
incrWithInit of keys that do not end in ":lock" are background (noreply) writes; every
other cache call waits for a reply. After one or more background writes, the next call that
waits for a reply ("post-write read") is the one Nagle holds back, so its stall is the gap
from that call's line to the next line of the request.

With --per-request, also prints one row per request: lines, wall time (first to last line),
post-write reads, how many of them are followed by a gap in [40, 45) ms, and the share of
the request's wall time spent in the gaps after post-write reads.

Usage: gapstats.py [--per-request] LOG [LOG...]
"""

import re
import statistics
import sys
from collections import defaultdict
from datetime import datetime, timezone

LINE = re.compile(
    r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{6}) \[([0-9a-f]{24})\] \S+ \S+ \S+ (\S+) ([A-Z]+): (.*)$"
)
CACHE_CALL = re.compile(
    r"^MemcachedPeclBagOStuff debug: (get|getMulti|set|delete|add|incrWithInit|cas|touch)\((.*)\)"
    r"(?: \{.*\})?$"
)
BACKGROUND_OPS = {"set", "delete", "add", "incrWithInit"}


def parse(path):
    """Returns {reqId: [(seconds, channel, message)]} in file order."""
    requests = defaultdict(list)
    with open(path, encoding="utf-8") as fh:
        for number, text in enumerate(fh, 1):
            m = LINE.match(text.rstrip("\n"))
            if not m:
                sys.exit(f"{path}:{number}: not a WMF Monolog line")
            stamp = datetime.strptime(m[1], "%Y-%m-%d %H:%M:%S.%f").replace(tzinfo=timezone.utc)
            requests[m[2]].append((stamp.timestamp(), m[3], m[5]))
    return requests


def classify(message):
    """'bg' for a background write, 'sync' for a call that waits for a reply, None otherwise."""
    m = CACHE_CALL.match(message)
    if not m:
        return None
    op, key = m[1], m[2]
    if op in BACKGROUND_OPS and not key.endswith(":lock"):
        return "bg"
    return "sync"


def describe(name, gaps_ms):
    if not gaps_ms:
        return f"  {name}: none"
    s = sorted(gaps_ms)
    q = statistics.quantiles(s, n=10) if len(s) >= 2 else [s[0]] * 9
    band = sum(1 for g in s if 40.0 <= g < 45.0)
    at44 = sum(1 for g in s if 43.5 <= g < 44.5)
    return (
        f"  {name}: n={len(s)} median={statistics.median(s):.2f} ms "
        f"p10={q[0]:.2f} p90={q[8]:.2f} max={s[-1]:.2f}; "
        f"in [40,45) ms: {band}; in [43.5,44.5) ms: {at44}"
    )


def histogram(gaps_ms, lo=30, hi=50):
    counts = defaultdict(int)
    for g in gaps_ms:
        if lo <= g < hi:
            counts[int(g)] += 1
    return "  1-ms bins %d-%d ms: " % (lo, hi) + " ".join(
        f"{b}:{counts[b]}" for b in range(lo, hi) if counts[b]
    )


def analyse(path, per_request):
    requests = parse(path)
    post_write, after_bg_line, other = [], [], []
    bg_writes = post_write_reads = 0
    rows = []
    for req_id, lines in requests.items():
        first_post_write = len(post_write)
        pending = False
        for i, (t, _channel, message) in enumerate(lines):
            kind = classify(message)
            gap = (lines[i + 1][0] - t) * 1000.0 if i + 1 < len(lines) else None
            if kind == "bg":
                bg_writes += 1
                pending = True
                if gap is not None:
                    after_bg_line.append(gap)
                continue
            if kind == "sync" and pending:
                pending = False
                post_write_reads += 1
                if gap is not None:
                    post_write.append(gap)
                continue
            if gap is not None:
                other.append(gap)
        mine = post_write[first_post_write:]
        stalls = [g for g in mine if 40.0 <= g < 45.0]
        wall = (lines[-1][0] - lines[0][0]) * 1000.0
        rows.append((req_id, len(lines), wall, len(mine), len(stalls),
                     100.0 * sum(mine) / wall if wall > 0 else 0.0))
    all_gaps = post_write + after_bg_line + other
    print(f"{path}: {sum(len(v) for v in requests.values())} lines, {len(requests)} requests, "
          f"{bg_writes} background writes, {post_write_reads} post-write reads")
    print(describe("gap after a post-write read's line", post_write))
    print(histogram(post_write))
    print(describe("gap right after a background write's line", after_bg_line))
    print(describe("all other gaps", other))
    print(describe("all gaps", all_gaps))
    print(histogram(all_gaps))
    if per_request:
        print("  reqId                     lines   wall_ms  post-write  in[40,45)  share%")
        for req_id, n, wall, reads, stalls, share in rows:
            print(f"  {req_id}  {n:5d}  {wall:8.1f}  {reads:10d}  {stalls:9d}  {share:5.1f}")


def main(argv):
    per_request = "--per-request" in argv[1:]
    paths = [a for a in argv[1:] if a != "--per-request"]
    if not paths:
        sys.exit(__doc__.strip().splitlines()[-1])
    for path in paths:
        analyse(path, per_request)


if __name__ == "__main__":
    main(sys.argv)
