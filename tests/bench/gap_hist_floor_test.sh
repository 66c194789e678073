#!/usr/bin/env bash
# bench/gap_hist_floor must do bench/gap_hist.awk's job: the same output as mawk, byte for byte,
# for any number of threads, on generated logs (64 and 2 000 requests in flight) and on small
# edge cases (no input, no final newline, continuation lines, a change of day, a file shorter
# than the shares it is cut into).
#
# usage: gap_hist_floor_test.sh FLOOR_BINARY GEN_MWLOG_BINARY AWK_PROGRAM
set -euo pipefail
floor=$1 gen=$2 awk_program=$3
export LC_ALL=C
command -v mawk >/dev/null || { echo "mawk not found (apt-get install mawk)"; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

: >"$work/empty.log"
printf '2026-01-01 00:00:00.000000 [a] x\n  2026-01-01 00:00:01.5 [a] y\ncontinuation\n' >"$work/edges.log"
printf '2026-01-01 23:59:59.999999 [a] late\n2026-01-02 00:00:00 [a] next day\n' >>"$work/edges.log"
printf '2026-01-02 00:00:00 [b] z\n2026-01-02 00:00:00 [b] same time\n2026-01-01 23:00:00 [b] back' >>"$work/edges.log"
"$gen" --size 3000000 --concurrent 64 --seed 3 --output "$work/c64.log" >/dev/null
"$gen" --size 3000000 --concurrent 2000 --seed 4 --output "$work/c2000.log" >/dev/null

failed=0
for log in "$work"/*.log; do
    mawk -f "$awk_program" "$log" >"$work/expected"
    for threads in 1 2 3 16; do
        if ! "$floor" --threads "$threads" "$log" >"$work/got"; then
            echo "FAIL: $(basename "$log") --threads $threads: exit status $?"
            failed=1
        elif ! cmp -s "$work/expected" "$work/got"; then
            echo "FAIL: $(basename "$log") --threads $threads: output differs from mawk's"
            diff "$work/expected" "$work/got" | head -n 10 || true
            failed=1
        else
            echo "ok: $(basename "$log") --threads $threads ($(head -n 1 "$work/got"))"
        fi
    done
done
if "$floor" "$work/missing.log" >/dev/null 2>"$work/err"; then
    echo "FAIL: a missing file did not fail"
    failed=1
elif ! grep -q 'missing.log' "$work/err"; then
    echo "FAIL: the error does not name the file: $(cat "$work/err")"
    failed=1
fi
exit "$failed"
