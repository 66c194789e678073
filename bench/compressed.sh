#!/usr/bin/env bash
# compressed.sh — gapscan on compressed logs against the decompressors alone.
#
# Compresses one generated MediaWiki line log (bench/gen_mwlog.cpp) with gzip -6 (logrotate's
# default) and zstd -3 (zstd's default), then times, interleaved round by round in this one
# invocation: `zcat >/dev/null`, gapscan's decoder and line splitter alone (`decode_speed`,
# built beside gapscan) and `gapscan --output json FILE.gz`; the same for zstd against
# `zstdcat >/dev/null`; and gapscan on the plain file. Each command's median wall time is
# reported with the decoded MB/s and its time relative to the decompressor's (below 1.00:
# faster than the tool that only decompresses).
# bench/run.sh runs it after its throughput tables.
set -euo pipefail

usage() {
    cat <<'EOF'
usage: bench/compressed.sh [--gapscan PATH] [--size SIZE] [--concurrent N] [--runs N] [--workdir DIR] [--keep]

  --gapscan PATH     gapscan binary (default: build/release/gapscan)
  --size SIZE        size of the log before compression; K, M, G suffixes. Default 256M
  --concurrent N     requests in flight in the generated log. Default 2000
  --runs N           timed runs per command; the median is reported. Default 3
  --workdir DIR      where the data goes (default: build/bench)
  --keep             keep the generated and compressed files
EOF
}

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
gapscan="$root/build/release/gapscan"
size=256M
concurrent=2000
runs=3
workdir="$root/build/bench"
keep=0

die() {
    echo "compressed.sh: $*" >&2
    exit 2
}

while [[ $# -gt 0 ]]; do
    case $1 in
        --gapscan) gapscan=$2; shift ;;
        --size) size=$2; shift ;;
        --concurrent) concurrent=$2; shift ;;
        --runs) runs=$2; shift ;;
        --workdir) workdir=$2; shift ;;
        --keep) keep=1 ;;
        -h | --help) usage; exit 0 ;;
        *) usage >&2; die "unknown option '$1'" ;;
    esac
    shift
done

[[ $size =~ ^([0-9]+)([KkMmGg]?)$ ]] || die "--size: expected e.g. 256M, got '$size'"
case ${BASH_REMATCH[2]} in
    K | k) bytes=$((BASH_REMATCH[1] << 10)) ;;
    M | m) bytes=$((BASH_REMATCH[1] << 20)) ;;
    G | g) bytes=$((BASH_REMATCH[1] << 30)) ;;
    *) bytes=${BASH_REMATCH[1]} ;;
esac
[[ -x $gapscan ]] || die "gapscan not found at '$gapscan': build it first or pass --gapscan"
for tool in gzip zcat zstd zstdcat; do
    command -v "$tool" >/dev/null || die "$tool not found; install it with: apt-get install gzip zstd"
done

mkdir -p "$workdir"
workdir=$(cd "$workdir" && pwd)
gen="$workdir/gen_mwlog"
if [[ ! -x $gen || $here/gen_mwlog.cpp -nt $gen ]]; then
    g++ -O2 -std=c++20 -o "$gen" "$here/gen_mwlog.cpp"
fi
plain="$workdir/mwlog-$bytes-c$concurrent-s1.log"
cleanup() {
    if [[ $keep -eq 0 ]]; then rm -f "$plain.gz" "$plain.zst"; fi
}
trap cleanup EXIT
if [[ ! -f $plain ]]; then
    echo "generating $plain"
    "$gen" --size "$bytes" --concurrent "$concurrent" --seed 1 --output "$plain"
fi
[[ -f $plain.gz && $plain.gz -nt $plain ]] || { echo "gzip -6 $plain"; gzip -6 -c "$plain" >"$plain.gz"; }
[[ -f $plain.zst && $plain.zst -nt $plain ]] || { echo "zstd -3 $plain"; zstd -q -3 -f -o "$plain.zst" "$plain"; }
cat "$plain" "$plain.gz" "$plain.zst" >/dev/null  # warm page cache

decode_speed=$(dirname "$gapscan")/decode_speed
[[ -x $decode_speed ]] || die "decode_speed not found beside gapscan ($decode_speed): build the bench targets"
names=(zcat decode_gzip gapscan_gzip zstdcat decode_zstd gapscan_zstd gapscan_plain)
declare -A command=(
    [zcat]="zcat '$plain.gz' >/dev/null"
    [decode_gzip]="'$decode_speed' '$plain.gz' >/dev/null"
    [gapscan_gzip]="'$gapscan' --output json '$plain.gz' >/dev/null"
    [zstdcat]="zstdcat '$plain.zst' >/dev/null"
    [decode_zstd]="'$decode_speed' '$plain.zst' >/dev/null"
    [gapscan_zstd]="'$gapscan' --output json '$plain.zst' >/dev/null"
    [gapscan_plain]="'$gapscan' --output json '$plain' >/dev/null"
)
declare -A samples=()
for ((round = 1; round <= runs; round++)); do
    for name in "${names[@]}"; do
        t0=$(date +%s%N)
        bash -c "${command[$name]}" || die "$name failed"
        t1=$(date +%s%N)
        samples[$name]+="$((t1 - t0)) "
    done
done
median() { tr ' ' '\n' <<<"$1" | grep . | sort -n | mawk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] / 1e9 }'; }
declare -A seconds=()
for name in "${names[@]}"; do seconds[$name]=$(median "${samples[$name]}"); done

decoded=$(stat -c %s "$plain")
printf '\ncompressed input: %s MB decoded (%s in flight); gzip -6 %s MB, zstd -3 %s MB; median of %s runs\n' \
    "$((decoded / 1000000))" "$concurrent" "$(($(stat -c %s "$plain.gz") / 1000000))" \
    "$(($(stat -c %s "$plain.zst") / 1000000))" "$runs"
printf '%-15s %9s %10s %16s\n' command seconds 'MB/s' 'vs decompressor'
for name in "${names[@]}"; do
    s=${seconds[$name]}
    case $name in
        decode_gzip | gapscan_gzip) ratio=$(mawk "BEGIN { printf \"%.2f\", $s / ${seconds[zcat]} }") ;;
        decode_zstd | gapscan_zstd) ratio=$(mawk "BEGIN { printf \"%.2f\", $s / ${seconds[zstdcat]} }") ;;
        *) ratio=- ;;
    esac
    printf '%-15s %9.3f %10.0f %16s\n' "$name" "$s" "$(mawk "BEGIN { print $decoded / 1e6 / $s }")" "$ratio"
done
