#!/usr/bin/env bash
# scaling.sh — does gapscan's cost grow with the work and nothing else? Generates logs of 64 MiB,
# 256 MiB, 1 GiB and 4 GiB (bench/gen_mwlog.cpp, 64 requests in flight unless --concurrent),
# times `gapscan --output json` on each (median of --runs) and prints seconds per GB and peak
# RSS per size, then the largest size's seconds per GB over the smallest's (goal: within 15 %)
# and its peak RSS over the smallest's (goal: flat). Like bench/run.sh, compare the ratios, not
# the times, across machines.
set -euo pipefail

usage() {
    cat <<'EOF_USAGE'
usage: bench/scaling.sh [--gapscan PATH] [--sizes S1,S2,...] [--concurrent N] [--runs N] [--workdir DIR] [--keep]

  --gapscan PATH   gapscan binary (default: build/release/gapscan)
  --sizes LIST     sizes to generate, suffixes K, M, G (default 64M,256M,1G,4G)
  --concurrent N   requests in flight (default 64); N:L for requests of L lines each
  --runs N         timed runs per size; the median is reported (default 1)
  --workdir DIR    where the generator and the logs go (default: build/bench)
  --keep           keep the generated logs
EOF_USAGE
}

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
gapscan="$root/build/release/gapscan"
sizes=64M,256M,1G,4G
concurrent=64
runs=1
workdir="$root/build/bench"
keep=0
die() { echo "scaling.sh: $*" >&2; exit 2; }
while [[ $# -gt 0 ]]; do
    case $1 in
        --gapscan) gapscan=${2:?}; shift ;;
        --sizes) sizes=${2:?}; shift ;;
        --concurrent) concurrent=${2:?}; shift ;;
        --runs) runs=${2:?}; shift ;;
        --workdir) workdir=${2:?}; shift ;;
        --keep) keep=1 ;;
        -h | --help) usage; exit 0 ;;
        *) usage >&2; die "unknown option '$1'" ;;
    esac
    shift
done
[[ -x $gapscan ]] || die "no gapscan binary at '$gapscan' (build it first, or pass --gapscan)"
[[ $runs =~ ^[0-9]+$ && $runs -ge 1 ]] || die "--runs: expected a positive integer, got '$runs'"
[[ -x /usr/bin/time ]] || die "GNU time not found; install it with: apt-get install time"
gen_args=(--concurrent "${concurrent%%:*}")
[[ $concurrent == *:* ]] && gen_args+=(--request-lines "${concurrent#*:}")

mkdir -p "$workdir"
workdir=$(cd "$workdir" && pwd)
gen="$workdir/gen_mwlog"
if [[ ! -x $gen || $here/gen_mwlog.cpp -nt $gen ]]; then
    echo "building $gen"
    g++ -O2 -std=c++20 -o "$gen" "$here/gen_mwlog.cpp"
fi
made=()
cleanup() { if [[ $keep -eq 0 ]]; then rm -f "${made[@]}"; fi; rm -f "$workdir/.scaling-rss"; }
trap cleanup EXIT

printf '%-8s %10s %10s %10s %12s\n' size MB 'median s' 's per GB' 'peak RSS'
first_rate= first_rss= rate= rss=
IFS=, read -r -a list <<<"$sizes"
for size in "${list[@]}"; do
    file="$workdir/scaling-$size-c${concurrent/:/x}.log"
    if [[ ! -f $file || $gen -nt $file ]]; then
        "$gen" --size "$size" "${gen_args[@]}" --seed 1 --output "$file"
        made+=("$file")
    fi
    bytes=$(stat -c %s "$file")
    cat "$file" >/dev/null
    walls=() rss=0
    for ((r = 0; r < runs; r++)); do
        t0=$(date +%s%N)
        /usr/bin/time -f %M -o "$workdir/.scaling-rss" "$gapscan" --quiet --output json "$file" >/dev/null
        t1=$(date +%s%N)
        walls+=($((t1 - t0)))
        m=$(tail -n 1 "$workdir/.scaling-rss")
        ((m > rss)) && rss=$m
    done
    median=$(printf '%s\n' "${walls[@]}" | sort -n | sed -n "$(((runs + 1) / 2))p")
    rate=$(mawk -v t="$median" -v b="$bytes" 'BEGIN { printf "%.3f", t / 1e9 / (b / 1e9) }')
    printf '%-8s %10.0f %10.3f %10s %9.1f MiB\n' "$size" "$(mawk -v b="$bytes" 'BEGIN { print b / 1e6 }')" \
        "$(mawk -v t="$median" 'BEGIN { print t / 1e9 }')" "$rate" "$(mawk -v k="$rss" 'BEGIN { print k / 1024 }')"
    [[ -z $first_rate ]] && first_rate=$rate first_rss=$rss
    if [[ $keep -eq 0 ]]; then rm -f "$file"; fi
done
echo "largest over smallest: $(mawk -v a="$rate" -v b="$first_rate" 'BEGIN { printf "%.2f", a / b }') in seconds per GB (goal: within 1.15)," \
    "$(mawk -v a="$rss" -v b="$first_rss" 'BEGIN { printf "%.2f", a / b }') in peak RSS (goal: flat)"
