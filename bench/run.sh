#!/usr/bin/env bash
# run.sh — gapscan's throughput and memory benchmark.
#
# Generates one synthetic MediaWiki line log (bench/gen_mwlog.cpp), then times, on that same
# file and in this one invocation: `wc -l` (the I/O floor), `mawk -f bench/gap_hist.awk` (the
# awk baseline doing gapscan's gap histogram), bench/gap_hist_floor (the awk program's job in
# plain C++ on every processor: the floor under any tool that does at least that job; its
# output must be mawk's, byte for byte), the same job as a user would otherwise write it (the
# awk program under gawk, and bench/gap_hist_pandas.py with Debian's python3-pandas; both must
# give mawk's output too) and `gapscan --output json`. Runs are interleaved
# round by round; each command's median wall time is reported with MB/s and its speed relative
# to mawk and to wc -l. gapscan also runs on a file a quarter of the size, to show that its
# peak RSS does not grow with the input, and on a quarter-size file whose two halves are six
# hours apart, to show that it does not grow with the time the log spans either (a day's
# archive spans hours; the generated logs span minutes). Results go to
# <workdir>/results-c<N>.tsv. By default it runs at 64, 2 000 and 100 000 requests in flight of
# web requests (a median of 60 lines each) and at 64 in flight of long ones (50 000 lines each:
# jobs, a worker's whole life), and ends with one table of them all, then the compressed-input
# table (bench/compressed.sh).
#
# Figures are ratios against baselines measured in the same invocation: compare those, not
# absolute times, across machines.
set -euo pipefail

usage() {
    cat <<'EOF'
usage: bench/run.sh [--gapscan PATH] [--size SIZE] [--concurrent N[,N...]] [--workdir DIR] [--keep]

  --gapscan PATH     gapscan binary (default: build/release/gapscan); rows are skipped
                     with a message if it is missing
  --size SIZE        size of the generated log; suffixes K, M, G (powers of 1024). Default
                     1G with 64 requests in flight, 512M with 2000, 256M with more
  --concurrent N     requests in flight in the generated log, N:L for requests of a median
                     of L lines (gen_mwlog --request-lines); a comma-separated list runs
                     the benchmark once per value and ends with one table of them all.
                     Default 64,2000,100000,64:50000
  --seed S           generator seed. Default 1
  --runs N           timed runs per command; the median is reported. Default 3
  --workdir DIR      where the generator, data and results go (default: build/bench)
  --keep             keep the generated data files (they are reused by later runs)
  --no-compressed    skip the compressed-input table (bench/compressed.sh: gzip and zstd
                     against zcat and zstdcat), which follows the tables of a multi-level run
EOF
}

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)

gapscan="$root/build/release/gapscan"
size=
concurrent=64,2000,100000,64:50000
seed=1
runs=3
workdir="$root/build/bench"
keep=0
compressed=1

die() {
    echo "run.sh: $*" >&2
    exit 2
}

while [[ $# -gt 0 ]]; do
    opt=$1
    val=
    case $opt in
        --*=*) val=${opt#*=}; opt=${opt%%=*} ;;
        --gapscan | --size | --concurrent | --seed | --runs | --workdir)
            [[ $# -ge 2 ]] || die "option '$opt' needs a value (see --help)"
            val=$2
            shift ;;
    esac
    case $opt in
        --gapscan) gapscan=$val ;;
        --size) size=$val ;;
        --concurrent) concurrent=$val ;;
        --seed) seed=$val ;;
        --runs) runs=$val ;;
        --workdir) workdir=$val ;;
        --keep) keep=1 ;;
        --no-compressed) compressed=0 ;;
        -h | --help) usage; exit 0 ;;
        *) usage >&2; die "unknown option '$opt'" ;;
    esac
    shift
done

# Several concurrencies: this script once per value, then one table of them all.
if [[ $concurrent == *,* ]]; then
    IFS=, read -r -a levels <<<"$concurrent"
    summary=()
    for c in "${levels[@]}"; do
        args=(--gapscan "$gapscan" --concurrent "$c" --seed "$seed" --runs "$runs" --workdir "$workdir")
        [[ -n $size ]] && args+=(--size "$size")
        [[ $keep -eq 1 ]] && args+=(--keep)
        "$0" "${args[@]}" || exit $?
        summary+=("$workdir/results-c${c/:/x}.tsv")
        echo
    done
    echo "all concurrencies (ratios measured in the same invocation; results-c*.tsv in $workdir):"
    printf '%-11s %7s %8s %8s %8s %9s %7s %8s %8s %8s %8s %22s %12s\n' 'in flight' MB 'mawk s' 'gawk s' \
        'pandas s' 'gapscan s' 'MB/s' 'vs mawk' 'vs peers' 'floor' 'gs/floor' 'peak RSS (1/4 -> all)' '1/4 over 6 h'
    for f in "${summary[@]}"; do
        mawk -F'\t' -v c="$(basename "$f" .tsv | sed 's/^results-c//; s/x/ x /')" '
            function peer(t) { return t > 0 ? sprintf("%8.3f", t) : sprintf("%8s", "-") }
            $1 == "mawk" { mb = $2 / 1e6; tm = $5 }
            $1 == "gawk" { tw = $5 }
            $1 == "pandas" { tp = $5 }
            $1 == "gapscan" { tg = $5; rate = $6; vs = $7; rss = $9 }
            $1 == "gapscan_quarter" { rq = $9 }
            $1 == "gapscan_span" { rs = $9 }
            $1 == "floor" { fl = $7; tf = $5 }
            END {
                best = tm; if (tw > 0 && tw < best) best = tw; if (tp > 0 && tp < best) best = tp
                printf "%-11s %7.0f %8.3f %s %s %9.3f %7s %7sx %7.2fx %7sx %8.1f %10.1f -> %.1f MiB %8.1f MiB\n", c, mb, tm, peer(tw), peer(tp), tg, rate, vs, (tg > 0 ? best / tg : 0), fl, (tf > 0 ? tg / tf : 0), rq / 1024, rss / 1024, rs / 1024 }' "$f"
    done
    echo "(in flight: requests at once, x L: of L lines each; vs peers: the fastest of mawk, gawk and pandas"
    echo " over gapscan's time, above 1 when gapscan is ahead of all; floor: bench/gap_hist_floor, the awk"
    echo " program's job alone in C++ on every processor, vs mawk; gs/floor: gapscan's time over the floor's)"
    if [[ $compressed -eq 1 ]]; then
        args=(--gapscan "$gapscan" --runs "$runs" --workdir "$workdir")
        [[ $keep -eq 1 ]] && args+=(--keep)
        "$here/compressed.sh" "${args[@]}"
    fi
    exit 0
fi
request_lines=
if [[ $concurrent == *:* ]]; then
    request_lines=${concurrent#*:}
    concurrent=${concurrent%%:*}
    [[ $request_lines =~ ^[0-9]+$ && $request_lines -ge 1 ]] || die "--concurrent N:L: expected a positive L, got '$request_lines'"
fi
if [[ -z $size ]]; then
    if [[ -n $request_lines ]]; then size=512M
    elif ((concurrent <= 64)); then size=1G; elif ((concurrent <= 2000)); then size=512M; else size=256M; fi
fi
level=$concurrent${request_lines:+x$request_lines}   # in file names: 64, 64x50000

# Sizes as the generator reads them: digits and an optional K/M/G/T suffix, powers of 1024.
to_bytes() {
    local s=$1
    [[ $s =~ ^([0-9]+)([KkMmGgTt]?)(i?[Bb])?$ ]] || die "--size: expected e.g. 1G, 200M or 4096, got '$s'"
    local n=${BASH_REMATCH[1]} shift=0
    case ${BASH_REMATCH[2]} in
        K | k) shift=10 ;; M | m) shift=20 ;; G | g) shift=30 ;; T | t) shift=40 ;;
    esac
    echo $((10#$n << shift))
}

bytes=$(to_bytes "$size")
quarter_bytes=$((bytes / 4))
[[ $concurrent =~ ^[0-9]+$ && $concurrent -ge 1 ]] || die "--concurrent: expected a positive integer, got '$concurrent'"
[[ $seed =~ ^[0-9]+$ ]] || die "--seed: expected a non-negative integer, got '$seed'"
[[ $runs =~ ^[0-9]+$ && $runs -ge 1 ]] || die "--runs: expected a positive integer, got '$runs'"
(( bytes >= 4096 )) || die "--size: at least 4K, got '$size'"

export LC_ALL=C   # the same byte handling for wc and mawk on every machine

command -v mawk >/dev/null || die "mawk not found; install it with: apt-get install mawk"

time_bin=
if [[ -x /usr/bin/time ]] && /usr/bin/time -f %M -o /dev/null true 2>/dev/null; then
    time_bin=/usr/bin/time
else
    echo "note: GNU time (/usr/bin/time) not found, so no peak RSS figures;" \
        "install it with: apt-get install time" >&2
fi

# The peers: what a user would otherwise write. Rows are skipped when one is missing.
have_gawk=0
if command -v gawk >/dev/null; then have_gawk=1; else echo "note: gawk not found (apt-get install gawk): no gawk row" >&2; fi
have_pandas=0
if /usr/bin/python3 -c 'import pandas' 2>/dev/null; then
    have_pandas=1
else
    echo "note: Debian's python3-pandas not found (apt-get install python3-pandas): no pandas row" >&2
fi

have_gapscan=0
if [[ -f $gapscan && -x $gapscan ]]; then
    have_gapscan=1
else
    echo "note: gapscan not found at '$gapscan': skipping the gapscan rows." \
        "Build the release binary first, or pass --gapscan PATH." >&2
fi

mkdir -p "$workdir"
workdir=$(cd "$workdir" && pwd)
data="$workdir/mwlog-$bytes-c$level-s$seed.log"
data_quarter="$workdir/mwlog-$quarter_bytes-c$level-s$seed.log"
data_span="$workdir/mwlog-$quarter_bytes-c$level-s$seed-6h.log"
gen_args=(--concurrent "$concurrent")
[[ -n $request_lines ]] && gen_args+=(--request-lines "$request_lines")
rss_file="$workdir/.rss"
err_file="$workdir/.stderr"

# shellcheck disable=SC2317  # called through the trap
cleanup() {
    rm -f "$rss_file" "$err_file" "$data.tmp" "$data_quarter.tmp" "$data_span.tmp" "$data_span.half"
    if [[ $keep -eq 0 ]]; then
        rm -f "$data" "$data_quarter" "$data_span"
    fi
}
trap cleanup EXIT

# ---------------------------------------------------------------- generator

gen="$workdir/gen_mwlog"
if [[ ! -x $gen || $here/gen_mwlog.cpp -nt $gen ]]; then
    command -v g++ >/dev/null || die "g++ not found; install it with: apt-get install g++"
    echo "building $gen"
    g++ -O2 -std=c++20 -o "$gen" "$here/gen_mwlog.cpp"
fi

floor_bin="$workdir/gap_hist_floor"
if [[ ! -x $floor_bin || $here/gap_hist_floor.cpp -nt $floor_bin ]]; then
    command -v g++ >/dev/null || die "g++ not found; install it with: apt-get install g++"
    echo "building $floor_bin"
    g++ -O2 -std=c++20 -pthread -o "$floor_bin" "$here/gap_hist_floor.cpp"
fi

now_ns() { date +%s%N; }

# Float arithmetic and formatting (bash has integers only).
calc() { mawk "BEGIN { printf \"$1\", $2 }"; }

gen_ns=
generate() {   # generate FILE BYTES
    local file=$1 n=$2 t0 t1
    # A kept file is reused when the generator has not changed since (it is deterministic).
    if [[ -f $file && $file -nt $gen && $(stat -c %s "$file") -le $n &&
        $(stat -c %s "$file") -gt $((n - 512)) ]]; then
        echo "reusing $file"
        return
    fi
    echo "generating $file ($n bytes)"
    t0=$(now_ns)
    "$gen" --size "$n" "${gen_args[@]}" --seed "$seed" --output "$file.tmp"
    t1=$(now_ns)
    mv "$file.tmp" "$file"
    if [[ $file == "$data" ]]; then gen_ns=$((t1 - t0)); fi
}

# generate_span FILE BYTES: two halves of BYTES / 2, the second (another seed) starting six
# hours after the first.
generate_span() {
    local file=$1 n=$2
    if [[ -f $file && $file -nt $gen ]]; then
        echo "reusing $file"
        return
    fi
    echo "generating $file ($n bytes, two halves six hours apart)"
    "$gen" --size $((n / 2)) "${gen_args[@]}" --seed "$seed" --output "$file.tmp"
    "$gen" --size $((n / 2)) "${gen_args[@]}" --seed $((seed + 1)) \
        --start "2026-01-01 06:00:00" --output "$file.half"
    cat "$file.half" >>"$file.tmp"
    rm -f "$file.half"
    mv "$file.tmp" "$file"
}
generate "$data" "$bytes"
if [[ $have_gapscan -eq 1 ]]; then
    generate "$data_quarter" "$quarter_bytes"
    generate_span "$data_span" "$quarter_bytes"
fi
file_bytes=$(stat -c %s "$data")
cat "$data" >/dev/null   # start every command from a warm page cache

# ---------------------------------------------------------------- timed runs

declare -A times=() peak=() status=()

# timed NAME OUTPUT CMD... — one run: appends its wall time in ns to times[NAME], keeps the
# largest peak RSS (KiB) in peak[NAME] and the first non-zero exit status in status[NAME].
timed() {
    local name=$1 out=$2 t0 t1 st=0 rss
    shift 2
    t0=$(now_ns)
    if [[ -n $time_bin ]]; then
        "$time_bin" -f %M -o "$rss_file" "$@" >"$out" 2>"$err_file" || st=$?
    else
        "$@" >"$out" 2>"$err_file" || st=$?
    fi
    t1=$(now_ns)
    times[$name]="${times[$name]:-} $((t1 - t0))"
    if [[ -n $time_bin ]]; then
        rss=$(tail -n 1 "$rss_file")   # GNU time puts "Command exited with ..." before it
        if [[ $rss =~ ^[0-9]+$ ]] && (( rss > ${peak[$name]:-0} )); then peak[$name]=$rss; fi
    fi
    if (( st != 0 )) && [[ ${status[$name]:-0} == 0 ]]; then
        status[$name]=$st
        echo "warning: $name exited with status $st; its stderr ends with:" >&2
        tail -n 5 "$err_file" | sed 's/^/    /' >&2
    fi
    status[$name]=${status[$name]:-0}
}

median() {   # median of the numbers in $1
    local -a sorted
    read -r -a sorted <<<"$(tr ' ' '\n' <<<"$1" | sed '/^$/d' | sort -n | tr '\n' ' ')"
    echo "${sorted[$(((${#sorted[@]} - 1) / 2))]}"
}

echo "timing $runs runs each on $data"
for ((round = 1; round <= runs; round++)); do
    timed wc "$workdir/wc.out" wc -l "$data"
    timed mawk "$workdir/gap_hist.tsv" mawk -f "$here/gap_hist.awk" "$data"
    timed floor "$workdir/gap_hist_floor.tsv" "$floor_bin" --threads "$(nproc)" "$data"
    if [[ $have_gawk -eq 1 ]]; then timed gawk "$workdir/gap_hist_gawk.tsv" gawk -f "$here/gap_hist.awk" "$data"; fi
    if [[ $have_pandas -eq 1 ]]; then timed pandas "$workdir/gap_hist_pandas.tsv" "$here/gap_hist_pandas.py" "$data"; fi
    if [[ $have_gapscan -eq 1 ]]; then
        timed gapscan "$workdir/gapscan.json" "$gapscan" --output json "$data"
    fi
done
if [[ $have_gapscan -eq 1 ]]; then
    cat "$data_quarter" >/dev/null
    timed gapscan_quarter "$workdir/gapscan-quarter.json" "$gapscan" --output json "$data_quarter"
    cat "$data_span" >/dev/null
    timed gapscan_span "$workdir/gapscan-span.json" "$gapscan" --output json "$data_span"
fi

# ---------------------------------------------------------------- report

# The floor program and the peers do the awk program's job: they must give the same histogram.
for peer in floor gawk pandas; do
    [[ -n ${status[$peer]:-} ]] || continue
    if [[ ${status[$peer]} == 0 ]] && ! cmp -s "$workdir/gap_hist.tsv" "$workdir/gap_hist_$peer.tsv"; then
        echo "warning: the $peer program's output differs from mawk's ($workdir/gap_hist_$peer.tsv)" >&2
        status[$peer]=1
    fi
done

lines=$(mawk '{ print $1 }' "$workdir/wc.out")
t_wc=$(median "${times[wc]}")
t_mawk=$(median "${times[mawk]}")

tsv="$workdir/results-c$level.tsv"
printf 'command\tfile_bytes\tlines\truns\tmedian_s\tmb_per_s\tvs_mawk\tvs_wc\tpeak_rss_kib\texit_status\n' >"$tsv"

rss_text() {   # KiB -> "12.3 MiB", or "n/a"
    if [[ -n ${1:-} ]]; then calc '%.1f MiB' "$1 / 1024"; else echo n/a; fi
}

cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -n 1)
echo
echo "gapscan benchmark: $(calc '%.1f' "$file_bytes / 1e6") MB, $lines lines, --concurrent $concurrent${request_lines:+ of $request_lines lines each}," \
    "seed $seed; median of $runs runs (wall time)"
echo "machine: $(nproc) CPU(s)${cpu:+, $cpu}; $(mawk -W version 2>&1 | head -n 1)"
printf '%-21s %9s %9s %9s %9s %12s\n' command median_s MB/s 'vs mawk' 'vs wc -l' 'peak RSS'

failed=0
row() {   # row NAME LABEL BYTES RUNS [same-file]: ratios only for runs on the main file
    local name=$1 label=$2 nbytes=$3 nruns=$4 same=${5:-} t secs mbps vs_mawk='' vs_wc='' rss note=''
    t=$(median "${times[$name]}")
    secs=$(calc '%.3f' "$t / 1e9")
    mbps=$(calc '%.0f' "$nbytes * 1000 / $t")
    if [[ -n $same ]]; then
        vs_mawk=$(calc '%.2f' "$t_mawk / $t")
        vs_wc=$(calc '%.3f' "$t_wc / $t")
    fi
    rss=${peak[$name]:-}
    if [[ ${status[$name]} != 0 ]]; then
        failed=1
        note="  FAILED (exit ${status[$name]})"
    fi
    printf '%-21s %9s %9s %9s %9s %12s%s\n' "$label" "$secs" "$mbps" "${vs_mawk:+${vs_mawk}x}" \
        "${vs_wc:+${vs_wc}x}" "$(rss_text "$rss")" "$note"
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$nbytes" "${lines_of[$name]}" \
        "$nruns" "$secs" "$mbps" "$vs_mawk" "$vs_wc" "$rss" "${status[$name]}" >>"$tsv"
}

declare -A lines_of=([wc]=$lines [mawk]=$lines [floor]=$lines [gawk]=$lines [pandas]=$lines [gapscan]=$lines)
row wc 'wc -l' "$file_bytes" "$runs" same-file
row mawk 'mawk gap_hist.awk' "$file_bytes" "$runs" same-file
row floor 'floor (awk job, C++)' "$file_bytes" "$runs" same-file
if [[ $have_gawk -eq 1 ]]; then row gawk 'gawk gap_hist.awk' "$file_bytes" "$runs" same-file; fi
if [[ $have_pandas -eq 1 ]]; then row pandas 'pandas (python3)' "$file_bytes" "$runs" same-file; fi
if [[ $have_gapscan -eq 1 ]]; then
    row gapscan 'gapscan' "$file_bytes" "$runs" same-file
    quarter_file_bytes=$(stat -c %s "$data_quarter")
    lines_of[gapscan_quarter]=$(wc -l <"$data_quarter")
    row gapscan_quarter 'gapscan (1/4 size)' "$quarter_file_bytes" 1
    lines_of[gapscan_span]=$(wc -l <"$data_span")
    row gapscan_span 'gapscan (1/4, 6 h)' "$(stat -c %s "$data_span")" 1
else
    printf '%-21s %9s   (skipped: no binary at %s)\n' gapscan - "$gapscan"
    printf 'gapscan\t%s\t%s\t0\t\t\t\t\t\tskipped\n' "$file_bytes" "$lines" >>"$tsv"
fi
if [[ -n $gen_ns ]]; then
    printf 'gen_mwlog\t%s\t%s\t1\t%s\t%s\t\t\t\t0\n' "$file_bytes" "$lines" \
        "$(calc '%.3f' "$gen_ns / 1e9")" "$(calc '%.0f' "$file_bytes * 1000 / $gen_ns")" >>"$tsv"
    echo "(generator: $(calc '%.0f' "$file_bytes * 1000 / $gen_ns") MB/s writing the file)"
fi

echo
if [[ $have_gapscan -eq 1 && $failed -eq 0 ]]; then
    echo "gapscan speed vs mawk: $(calc '%.2f' "$t_mawk / $(median "${times[gapscan]}")")x (goal: at least 10x;" \
        "the awk job alone in C++ on $(nproc) processor(s): $(calc '%.2f' "$t_mawk / $(median "${times[floor]}")")x;" \
        "gapscan takes $(calc '%.1f' "$(median "${times[gapscan]}") / $(median "${times[floor]}")") times the floor's time)"
    if [[ -n ${peak[gapscan]:-} && -n ${peak[gapscan_quarter]:-} ]]; then
        echo "gapscan peak RSS: $(rss_text "${peak[gapscan_quarter]}") on $(calc '%.0f' "$quarter_file_bytes / 1e6") MB" \
            "| $(rss_text "${peak[gapscan]}") on $(calc '%.0f' "$file_bytes / 1e6") MB" \
            "(ratio $(calc '%.2f' "${peak[gapscan]} / ${peak[gapscan_quarter]}"); goal: flat, near 1)"
        if [[ -n ${peak[gapscan_span]:-} ]]; then
            echo "gapscan peak RSS over a span of six hours: $(rss_text "${peak[gapscan_span]}")" \
                "(ratio to the 1/4 file spanning minutes $(calc '%.2f' "${peak[gapscan_span]} / ${peak[gapscan_quarter]}"); goal: near 1)"
        fi
    else
        echo "gapscan peak RSS: n/a (needs GNU time: apt-get install time)"
    fi
fi
if [[ $failed -ne 0 ]]; then
    echo "some commands failed (see the warnings above); their times are not comparable"
fi
echo "results: $tsv"
exit "$failed"
