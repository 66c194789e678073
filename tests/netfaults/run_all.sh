#!/bin/bash
# run_all.sh [OUTDIR]   (GAPSCAN=/path/to/gapscan, default build/release/gapscan;
#                        CHECK_ONLY=1 re-scans and re-checks the logs already in OUTDIR)
#
# Runs every network-fault case and its healthy control, scans each case's log with
# `gapscan --output json` (client.log, or the server's own log that the case names in
# OUTDIR/scan-target: the live-server cases run Debian's HAProxy, nginx and MariaDB and scan
# haproxy.log, nginx-access.log and slow.log), and checks:
#   faulty  -> the first finding's cause is the expected one and its interval is within 5 %
#              of the median measured (truth.tsv: slow_median_ms and the class_* rows, from the
#              client's own times or the server's timers: HAProxy's Tc, nginx's uct, the
#              clients' timed-out UPDATEs)
#   control -> no finding with confidence >= 0.6
#   saturation -> requests queued behind a busy backend (HAProxy's Tw spread over a range):
#              no finding with confidence >= 0.6 names a fixed-delay cause, and when gapscan's
#              catalog has the expected cause (`gapscan causes`), a finding names it
#   outage  -> the first four SYNs of the stalled connection left at 0, 1, 3, 7 s (classic backoff),
#              measured by the sniffer; gapscan's report on it is printed for information only
#              (one stall is not a mode gapscan can report)
# One line per case: PASS / FAIL / SKIP with the numbers. Exit 1 on any FAIL.
set -u
HERE="$(cd "$(dirname "$0")" && pwd)"
OUT=${1:-$HERE/out}
GAPSCAN=${GAPSCAN:-$HERE/../../build/release/gapscan}
PY=$(command -v /usr/bin/python3 || command -v python3)
mkdir -p "$OUT"
fails=0
passes=0

# check KIND DIR [EXPECTED_CAUSE]  -> prints the verdict line's tail, returns 0 pass / 1 fail
# (the log scanned: DIR/client.log, or the file that DIR/scan-target names)
check() {
    local log=client.log
    [ -s "$2/scan-target" ] && log=$(head -n 1 "$2/scan-target")
    "$GAPSCAN" --output json "$2/$log" >"$2/gapscan.json" 2>"$2/gapscan.err" || {
        echo "gapscan failed: $(head -c 300 "$2/gapscan.err")"
        return 1
    }
    "$GAPSCAN" "$2/$log" >"$2/gapscan.txt" 2>&1
    [ "$1" = saturation ] && "$GAPSCAN" causes >"$2/gapscan-causes.txt" 2>&1
    "$PY" - "$1" "$2" "${3:-}" <<'EOF'
import json, sys
kind, d, want = sys.argv[1], sys.argv[2], sys.argv[3]
rep = json.load(open(f"{d}/gapscan.json"))
truth = dict(l.rstrip("\n").split("\t", 1) for l in open(f"{d}/truth.tsv") if "\t" in l)
fs = rep["findings"]
def desc(f):
    return (f"{f['cause']} conf={f['confidence']:.2f} interval={f['interval_ms']:.1f}ms "
            f"({f.get('values', 'gaps')}, {f['gaps']} members)")
slow_key = next(k for k in truth if k.startswith("slow_ge_"))
measured = (f"measured: {truth['count']} {truth['op']}s, {truth[slow_key]} >= {slow_key[8:]} "
            f"(median {truth['slow_median_ms']} ms), the others median {truth['fast_median_ms']} ms")
if kind == "fault":
    if not fs:
        print(f"no finding; {measured}"); sys.exit(1)
    f = fs[0]
    # the measured stalls fall in whole-timeout classes (1 s, 2 s … for SYNs, 5 s for DNS);
    # the first finding is compared with the median of the class nearest to it, and with the
    # median of all stalls >= 0.9 s (the two are the same when one class holds most stalls)
    classes = {k: (int(v.split()[0]), float(v.split("median=")[1]))
               for k, v in truth.items() if k.startswith("class_")}
    med_all = float(truth["slow_median_ms"])
    cname, (cn, cmed) = min(classes.items(), key=lambda kv: abs(kv[1][1] - f["interval_ms"]))
    dev = abs(f["interval_ms"] - cmed) / cmed
    dev_all = abs(f["interval_ms"] - med_all) / med_all
    # want: the cause, or causes the log cannot tell apart ("a|b": a lost segment's tail loss
    # probe and its retransmission timeout fire at the same time; only the kernel's counters,
    # printed from truth.tsv, say which)
    ok = f["cause"] in want.split("|") and dev <= 0.05
    why = "" if ok else (f" [want {want} first]" if f["cause"] not in want.split("|") else " [interval off]")
    alts = ", ".join(f"{a['cause']} {a['confidence']:.2f}" for a in f.get("alternatives", []))
    cls = " ".join(f"{k[6:]}:{v[0]}@{v[1]:.1f}ms" for k, v in sorted(classes.items()))
    kernel = " ".join(f"{k[7:]}={v}" for k, v in truth.items() if k.startswith("kernel_"))
    print(f"first={desc(f)} dev={dev*100:.2f}% from {cname[6:]} class median {cmed:.1f} ms "
          f"({dev_all*100:.2f}% from all-stall median); also fits: {alts or '-'}; "
          f"{measured}, classes {cls}{'; kernel ' + kernel if kernel else ''}{why}")
    sys.exit(0 if ok else 1)
elif kind == "control":
    high = [f for f in fs if f["confidence"] >= 0.6]
    top = max(fs, key=lambda f: f["confidence"]) if fs else None
    print(f"{len(fs)} findings, {len(high)} >= 0.6"
          + (f", highest {desc(top)}" if top else "") + f"; {measured}")
    sys.exit(1 if high else 0)
elif kind == "saturation":
    # a queue's waits are no fixed delay: no cause of the catalog's fixed delays may be
    # reported with confidence; the saturation cause (want) must be, once gapscan knows it
    wants = want.split("|")
    known = {l.split()[0] for l in open(f"{d}/gapscan-causes.txt") if l.strip()}
    fixed = [f for f in fs if f["confidence"] >= 0.6 and f["cause"] not in wants]
    named = [f for f in fs if f["cause"] in wants]
    need = any(w in known for w in wants)
    ok = not fixed and (named or not need)
    spread = " ".join(f"{k}={truth[k]}" for k in ("p10_ms", "p50_ms", "p90_ms", "max_ms",
                                                  "max_backend_queue") if k in truth)
    why = ""
    if fixed:
        why = f" [a fixed-delay cause >= 0.6: {desc(fixed[0])}]"
    elif need and not named:
        why = f" [want a {want} finding]"
    print(f"{len(fs)} findings, {len(fixed)} fixed-delay >= 0.6; "
          + (f"{desc(named[0])}" if named else
             f"no {want} finding ({'in' if need else 'not in'} gapscan's catalog)")
          + f"; {measured}; {truth['op']} {spread}{why}")
    sys.exit(0 if ok else 1)
else:  # outage
    offs = [float(x) for x in truth.get("syn_offsets_s", "").split(",") if x]
    # classic backoff: steps of 1, 2, 4 s; the kernel's timer wheel rounds a timer up by at
    # most an eighth of it (plus scheduling), never down
    # The first four SYNs are the schedule; the fourth is sent after the outage ends and is
    # answered. A SYN seen after it (same port and sequence number: a duplicate of the answered
    # one) does not change the schedule; it is printed, not failed on.
    steps = [b - a for a, b in zip(offs, offs[1:4])]
    ok = len(steps) == 3 and all(d - 0.02 <= s <= d * 1.15 + 0.03 for s, d in zip(steps, [1, 2, 4]))
    extra = f" ({len(offs) - 4} after the fourth)" if len(offs) > 4 else ""
    g = desc(fs[0]) if fs else "nothing"
    print(f"SYNs of the stalled connection at {','.join(f'{o:.3f}' for o in offs)} s{extra} "
          f"(want 0,1,3,7); connect {truth['max_ms']} ms; gapscan (info only): {g}")
    sys.exit(0 if ok else 1)
EOF
}

# case NAME KIND SCRIPT ARGS... [-- EXPECTED]
run_case() {
    local name=$1 kind=$2 script=$3 mode=$4 want=${5:-} dir="$OUT/$1" t0 rc msg
    t0=$(date +%s.%N)
    if [ -n "${CHECK_ONLY:-}" ]; then   # re-check the logs of an earlier run
        rc=0
    else
        "$HERE/$script" "$dir" $mode >"$OUT/$name.run.log" 2>&1
        rc=$?
    fi
    local secs
    secs=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN{printf "%.1f", b-a}')
    if [ $rc = 77 ]; then
        echo "SKIP $name (${secs}s): $(grep -m1 '^skipped:' "$OUT/$name.run.log")"
        return
    elif [ $rc != 0 ]; then
        echo "FAIL $name (${secs}s): $script exited $rc: $(tail -n 3 "$OUT/$name.run.log" | tr '\n' ' ')"
        fails=$((fails + 1))
        return
    fi
    if msg=$(check "$kind" "$dir" "$want"); then
        echo "PASS $name (${secs}s): $msg"
        passes=$((passes + 1))
    else
        echo "FAIL $name (${secs}s): $msg"
        fails=$((fails + 1))
    fi
}

run_case syn_drop         fault   syn_drop.sh    ""          tcp_syn_drop_connect_stall
run_case syn_drop_control control syn_drop.sh    --control
run_case syn_outage       outage  syn_drop.sh    --outage
run_case dns_timeout      fault   dns_timeout.sh ""          dns_resolver_timeout
run_case dns_timeout_control control dns_timeout.sh --control
run_case packet_loss      fault   packet_loss.sh ""          "tcp_rto_retransmission|tcp_tail_loss_probe"
run_case packet_loss_control control packet_loss.sh --control
run_case expect_continue  fault   expect_continue.sh ""      http_expect_100_continue_wait
run_case expect_continue_control control expect_continue.sh --control
# real servers (Debian's haproxy, nginx, mariadb-server): their own logs are scanned
run_case haproxy_syn_drop fault   haproxy_syn_drop.sh "" tcp_syn_drop_connect_stall
run_case haproxy_syn_drop_control control haproxy_syn_drop.sh --control
run_case haproxy_queue    saturation haproxy_queue.sh "" proxy_queue_saturation
run_case haproxy_queue_control control haproxy_queue.sh --control
run_case nginx_upstream   fault   nginx_upstream.sh "" tcp_syn_drop_connect_stall
run_case nginx_upstream_control control nginx_upstream.sh --control
run_case mariadb_lock     fault   mariadb_lock.sh "" mysql_innodb_lock_wait_timeout
run_case mariadb_lock_control control mariadb_lock.sh --control

[ $fails = 0 ] || { echo "$fails case(s) failed"; exit 1; }
# Every case skipped (no network namespaces here): CTest reports the test as skipped.
[ $passes -gt 0 ] || { echo "skipped: every case was skipped"; exit 77; }
echo "all cases passed or skipped"
