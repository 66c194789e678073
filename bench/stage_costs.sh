#!/usr/bin/env bash
# stage_costs.sh — where a one-thread scan's time goes, by stage of the pipeline, in ns per line.
#
#   bench/stage_costs.sh FILE [GAPSCAN]     (GAPSCAN: default build/release/gapscan)
#
# Runs `gapscan -j 1 --output json FILE` under `perf record --call-graph dwarf` (Debian's
# linux-perf; perf_event_paranoid must allow it) and files every sample under the first stage
# found on its stack, from the leaf up:
#   prepare       detect::Analyzer::prepare (gap series, the request's own tests, trigger lines)
#   absorb        detect::Analyzer::absorb (pooled histograms, samples, clusters, kept lines)
#   pooled tests  detect::Analyzer::finish and the duration analysis's finish
#   report        catalog ranking, the report model and its printing
#   catalog       loading the catalog and compiling its patterns
#   reading       the rest of cli::read_records: decoding, splitting, parsing, grouping
#   other         start-up, anything else
# and prints each stage's share of the samples and its cost per line (share × wall time of a
# plain run / lines). One thread, so that the shares add up to the wall time.
set -euo pipefail
root=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/.." && pwd)
file=${1:?usage: bench/stage_costs.sh FILE [GAPSCAN]}
gapscan=${2:-$root/build/release/gapscan}
command -v perf >/dev/null || { echo "stage_costs.sh: perf not found (apt-get install linux-perf)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

lines=$(wc -l < "$file")
start=$(date +%s.%N)
"$gapscan" -q -j 1 --output json "$file" > /dev/null
wall=$(echo "$(date +%s.%N) - $start" | bc)
perf record -q --call-graph dwarf,16384 -F 1000 -o "$work/perf.data" \
  "$gapscan" -q -j 1 --output json "$file" > /dev/null 2> "$work/perf.err"
perf script -i "$work/perf.data" 2> /dev/null > "$work/stacks.txt"

python3 - "$work/stacks.txt" "$lines" "$wall" "$file" <<'EOF'
import collections, re, sys

stacks, lines, wall, name = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
stages = [  # (stage, pattern on a frame), first match from the leaf up wins
    ("prepare", "Analyzer::prepare"),
    ("absorb", "Analyzer::absorb"),
    ("pooled tests", "Analyzer::finish"),
    ("pooled tests", "DurationAnalyzer::finish"),
    ("report", "rank_suspects"),
    ("report", "build_report"),
    ("report", "report::render"),
    ("catalog", "catalog::load"),
    ("reading", "cli::read_records"),
]
counts, total = collections.Counter(), 0
for sample in open(stacks).read().split("\n\n"):
    frames = [l for l in sample.strip().split("\n")[1:] if l.strip()]
    if not frames:
        continue
    total += 1
    stage = "other"
    for frame in frames:
        hit = next((s for s, p in stages if p in frame), None)
        if hit:
            stage = hit
            break
    counts[stage] += 1
print(f"{name}: {lines} lines, {wall:.3f} s with -j 1 ({wall / lines * 1e9:.0f} ns per line), {total} samples")
print(f"{'stage':<14}{'share':>8}{'ns/line':>10}")
for stage in ["reading", "prepare", "absorb", "pooled tests", "catalog", "report", "other"]:
    share = counts[stage] / max(1, total)
    print(f"{stage:<14}{share * 100:>7.1f}%{share * wall / lines * 1e9:>10.0f}")
EOF
