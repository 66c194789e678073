#!/usr/bin/env bash
# generate.sh: regenerate gapscan's Redis BGSAVE fork-stall sample.
#
# Starts a private redis-server on 127.0.0.1, fills it with DEBUG POPULATE (a few GB of RSS
# by default), runs the MediaWiki-like client workload (mwredis.php) against it and, while the
# workers run, issues BGSAVE every few seconds. Each BGSAVE fork()s the server; fork() copies
# the page tables of the whole RSS, and the server answers no client until it returns, so
# every worker's log shows a stall that ends around the moment redis.log says "Background
# saving started by pid N". Writes:
#   client.log.gz   the workers' log (WMF Monolog line format, UTC, microseconds), gzip -9
#   redis.log       Redis's own log (loglevel notice, UTC, milliseconds)
# With --min-fork-ms it first grows the dataset until a fork takes that long where it runs; with
# --truth it also writes what Redis measured of each fork during the workload.
# Only the redis-server and php processes started here are stopped, by pid.
set -euo pipefail

readonly prog=generate.sh
script_dir=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)
readonly script_dir

usage() {
    cat <<EOF
usage: $prog [options]

Options:
  -o, --out DIR        where to write client.log.gz and redis.log (default: $script_dir)
      --keys N         keys loaded with DEBUG POPULATE N key B (default: 6000000,
                       about 1 GB of RSS, forks of about 20 ms; --quick: 400000)
      --value-bytes B  size of each loaded value (default: 100; --quick: 1000: the same RSS
                       in fewer keys, so that each save ends sooner)
      --seconds S      how long the client workers run (default: 60; --quick: 40)
  -w, --workers W      concurrent PHP worker processes (default: 3; --quick: 3)
      --every S        seconds between BGSAVE commands; a BGSAVE is only sent when none is
                       in progress (default: 3; --quick: 2)
      --seed S         workload seed (default: 20261130)
  -p, --port P         first TCP port to try for redis-server (default: 26379)
      --min-fork-ms MS before the workload, grow the dataset (in at most five steps) until a
                       test BGSAVE's fork takes at least 1.3 x MS ms by Redis's own measure
                       (latest_fork_usec), so that the workload's forks, which vary by about
                       +-40 %, take MS or more; exits with status 3 and the reason
                       when the memory available here cannot hold that dataset (default: 0).
                       The workload's save children are then stopped right after the fork,
                       as the test saves are: the fork's stall is what is measured, and
                       writing a dump of several GB would take longer than --every
      --floor-fork-ms F  with --min-fork-ms: when the memory here cannot hold a dataset
                       whose fork takes MS, go on with the largest one it can hold if its
                       forks take at least F ms (default: MS, i.e. no fallback); exit with
                       status 3 only when even F is out of reach
      --max-rss-mib M  with --min-fork-ms: never grow the dataset past M MiB of RSS (default:
                       80 % of MemAvailable, less a 20 % margin)
      --truth FILE     write what Redis measured of each fork during the workload, one line
                       per fork: unix time (ms) and fork time (ms), tab-separated, after a
                       header; and the keys, RSS and worker count as comments
      --quick          small run (40 s of workload) for tests
  -h, --help           show this help
EOF
}

die() {
    printf '%s: error: %s\n' "$prog" "$*" >&2
    exit 1
}

note() {
    printf '%s: %s\n' "$prog" "$*" >&2
}

out_dir=$script_dir
keys=
value_bytes=
seconds=
workers=
every=
seed=20261130
port=26379
quick=0
min_fork_ms=0
floor_fork_ms=
max_rss_mib=0
truth_file=

need_value() {
    [[ $# -ge 2 && -n $2 ]] || die "option $1 needs a value (see --help)"
}

while [[ $# -gt 0 ]]; do
    case $1 in
        -o | --out) need_value "$@"; out_dir=$2; shift 2 ;;
        --keys) need_value "$@"; keys=$2; shift 2 ;;
        --value-bytes) need_value "$@"; value_bytes=$2; shift 2 ;;
        --seconds) need_value "$@"; seconds=$2; shift 2 ;;
        -w | --workers) need_value "$@"; workers=$2; shift 2 ;;
        --every) need_value "$@"; every=$2; shift 2 ;;
        --seed) need_value "$@"; seed=$2; shift 2 ;;
        -p | --port) need_value "$@"; port=$2; shift 2 ;;
        --min-fork-ms) need_value "$@"; min_fork_ms=$2; shift 2 ;;
        --floor-fork-ms) need_value "$@"; floor_fork_ms=$2; shift 2 ;;
        --max-rss-mib) need_value "$@"; max_rss_mib=$2; shift 2 ;;
        --truth) need_value "$@"; truth_file=$2; shift 2 ;;
        --quick) quick=1; shift ;;
        -h | --help) usage; exit 0 ;;
        *) usage >&2; die "unknown argument '$1'" ;;
    esac
done

if [[ $quick -eq 1 ]]; then
    : "${keys:=400000}" "${value_bytes:=1000}" "${seconds:=40}" "${workers:=3}" "${every:=2}"
else
    : "${keys:=6000000}" "${value_bytes:=100}" "${seconds:=60}" "${workers:=3}" "${every:=3}"
fi

if ! [[ $keys =~ ^[1-9][0-9]{0,9}$ ]] || ((keys < 5)); then
    die "--keys must be an integer >= 5, got '$keys'"
fi
[[ $value_bytes =~ ^[1-9][0-9]{0,5}$ ]] || die "--value-bytes must be an integer from 1 to 999999, got '$value_bytes'"
[[ $seconds =~ ^[1-9][0-9]{0,5}$ ]] || die "--seconds must be a positive integer, got '$seconds'"
[[ $workers =~ ^[1-9][0-9]{0,2}$ ]] || die "--workers must be an integer from 1 to 999, got '$workers'"
[[ $every =~ ^[1-9][0-9]{0,5}$ ]] || die "--every must be a positive integer, got '$every'"
[[ $seed =~ ^[0-9]{1,12}$ ]] || die "--seed must be a non-negative integer, got '$seed'"
[[ $min_fork_ms =~ ^[0-9]{1,4}$ ]] || die "--min-fork-ms must be an integer from 0 to 9999, got '$min_fork_ms'"
: "${floor_fork_ms:=$min_fork_ms}"
[[ $floor_fork_ms =~ ^[0-9]{1,4}$ ]] && ((floor_fork_ms <= min_fork_ms)) ||
    die "--floor-fork-ms must be an integer from 0 to --min-fork-ms ($min_fork_ms), got '$floor_fork_ms'"
[[ $max_rss_mib =~ ^[0-9]{1,7}$ ]] || die "--max-rss-mib must be a non-negative integer, got '$max_rss_mib'"
if ! [[ $port =~ ^[0-9]{1,5}$ ]] || ((port < 1024 || port > 65000)); then
    die "--port must be between 1024 and 65000, got '$port'"
fi

command -v redis-server >/dev/null 2>&1 ||
    die "redis-server not found in PATH (Debian: apt-get install redis-server)"
command -v redis-cli >/dev/null 2>&1 ||
    die "redis-cli not found in PATH (Debian: apt-get install redis-tools)"
command -v php >/dev/null 2>&1 ||
    die "php not found in PATH (Debian: apt-get install php-cli)"
php -r 'exit(extension_loaded("redis") ? 0 : 1);' ||
    die "the PHP redis extension is not loaded (Debian: apt-get install php-redis)"
command -v gzip >/dev/null 2>&1 || die "gzip not found in PATH (Debian: apt-get install gzip)"
[[ -f $script_dir/mwredis.php ]] || die "missing $script_dir/mwredis.php"

mkdir -p -- "$out_dir"
out_dir=$(cd -- "$out_dir" && pwd)
if [[ -n $truth_file ]]; then
    mkdir -p -- "$(dirname -- "$truth_file")"
    truth_file=$(cd -- "$(dirname -- "$truth_file")" && pwd)/$(basename -- "$truth_file")
fi

redis_pid=
worker_pids=()
tmp_dir=
tmp_out=()

# Stops the php processes started here (the pcntl driver forwards SIGTERM to its workers).
stop_workers() {
    local pid
    for pid in "${worker_pids[@]}"; do
        kill "$pid" 2>/dev/null || true
    done
    for pid in "${worker_pids[@]}"; do
        wait "$pid" 2>/dev/null || true
    done
    worker_pids=()
}

# SHUTDOWN NOSAVE first, then SIGTERM and finally SIGKILL to the pid started here. A save
# child still running (only when stopping early) is killed by Redis; its pid is taken while
# its parent is ours, and the script waits until it is gone too.
stop_redis() {
    [[ -n $redis_pid ]] || return 0
    local children=()
    if kill -0 "$redis_pid" 2>/dev/null; then
        mapfile -t children < <(ps -o pid= --ppid "$redis_pid" 2>/dev/null | tr -d ' ')
        redis-cli -h 127.0.0.1 -p "$port" SHUTDOWN NOSAVE >/dev/null 2>&1 || true
    fi
    local i
    for ((i = 0; i < 50; i++)); do
        kill -0 "$redis_pid" 2>/dev/null || break
        if ((i == 30)); then
            kill "$redis_pid" 2>/dev/null || true
        fi
        sleep 0.1
    done
    if kill -0 "$redis_pid" 2>/dev/null; then
        kill -KILL "$redis_pid" 2>/dev/null || true
    fi
    wait "$redis_pid" 2>/dev/null || true
    redis_pid=
    local child
    for child in "${children[@]}"; do
        for ((i = 0; i < 50; i++)); do
            kill -0 "$child" 2>/dev/null || break
            sleep 0.1
        done
        # Not gone after 5 s and not a zombie waiting to be reaped: kill it.
        if [[ $(ps -o stat= -p "$child" 2>/dev/null) == [^Z]* ]]; then
            kill -KILL "$child" 2>/dev/null || true
        fi
    done
}

cleanup() {
    stop_workers
    stop_redis
    local f
    for f in "${tmp_out[@]}"; do
        rm -f -- "$f"
    done
    if [[ -n $tmp_dir ]]; then
        rm -rf -- "$tmp_dir"
    fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# /dev/shm keeps the RDB writes off the disk, so the child's I/O does not compete with the
# workers' log writes; the dump of the default run is a few GB.
if [[ -d /dev/shm && -w /dev/shm ]]; then
    tmp_dir=$(mktemp -d /dev/shm/redis-bgsave.XXXXXX)
else
    tmp_dir=$(mktemp -d "${TMPDIR:-/tmp}/redis-bgsave.XXXXXX")
fi
client_log=$tmp_dir/client.log
redis_log=$tmp_dir/redis.log

port_in_use() {
    (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

rcli() {
    redis-cli -h 127.0.0.1 -p "$port" "$@"
}

# The value of FIELD in INFO SECTION (empty when absent).
info_field() {
    rcli INFO "$1" | tr -d '\r' | awk -F: -v k="$2" '$1 == k { print $2; exit }'
}

now_s() {
    printf '%s' "$EPOCHREALTIME"
}

# Seconds elapsed since $1 (an EPOCHREALTIME value), with one decimal.
since() {
    awk -v a="$1" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }'
}

start_redis() {
    local first=$port
    while port_in_use "$port"; do
        ((port < first + 50)) || die "no free TCP port in $first-$port"
        port=$((port + 1))
    done
    # TZ=UTC: Redis stamps its log lines in local time; the client log is in UTC.
    TZ=UTC redis-server --bind 127.0.0.1 --port "$port" --protected-mode yes \
        --daemonize no --dir "$tmp_dir" --dbfilename dump.rdb --save '' --appendonly no \
        --rdbcompression no --rdbchecksum no --enable-debug-command local \
        --logfile "$redis_log" --loglevel notice --latency-monitor-threshold 1 \
        </dev/null &
    redis_pid=$!
    local i
    for ((i = 0; i < 100; i++)); do
        kill -0 "$redis_pid" 2>/dev/null || {
            wait "$redis_pid" 2>/dev/null || true
            redis_pid=
            [[ -f $redis_log ]] && tail -n 5 -- "$redis_log" >&2
            die "redis-server exited at startup (port $port taken?)"
        }
        [[ $(rcli PING 2>/dev/null) == PONG ]] && return 0
        sleep 0.1
    done
    die "redis-server did not answer PING on 127.0.0.1:$port within 10 s"
}

bgsave_in_progress() {
    [[ $(info_field persistence rdb_bgsave_in_progress) == 1 ]]
}

# Waits (up to $1 s) until no background save is in progress.
wait_bgsave() {
    local limit=$1 start=$EPOCHREALTIME
    while bgsave_in_progress; do
        [[ $(awk -v a="$start" -v b="$EPOCHREALTIME" -v l="$limit" 'BEGIN { print (b - a > l) }') == 0 ]] ||
            die "a background save was still running after $limit s"
        sleep 0.1
    done
}

# kB of memory available for new allocations (MemAvailable).
mem_available_kb() {
    awk '$1 == "MemAvailable:" { print $2; exit }' /proc/meminfo
}

# Sends one BGSAVE and prints the fork time Redis measured, in ms (integer). The save child is
# then stopped with SIGUSR1, the signal Redis itself uses to end a child it no longer needs
# (not counted as a failed save), so a probe costs the fork, not the writing of the dump.
probe_fork_ms() {
    local reply child
    reply=$(rcli BGSAVE 2>&1) || true
    [[ $reply == "Background saving started" ]] || die "test BGSAVE refused: $reply"
    for child in $(ps -o pid= --ppid "$redis_pid" 2>/dev/null); do
        kill -USR1 "$child" 2>/dev/null || true
    done
    wait_bgsave 600
    awk -v u="$(info_field stats latest_fork_usec)" 'BEGIN { printf "%d", u / 1000 }'
}

# Grows the dataset until a fork takes at least --min-fork-ms here. Fork time grows with the
# RSS (the parent copies its page tables), so the keys needed are estimated from the measured
# time per key, with a margin for the spread between forks (about 2x here). The dataset never
# grows past the memory budget (80 % of MemAvailable less a 20 % margin, or --max-rss-mib;
# save children are stopped right after the fork, so no dump is written). A machine that
# forks quickly may need more memory than it has: then the largest dataset that fits is used
# if its forks reach --floor-fork-ms, and the script exits with status 3 if they do not.
size_dataset() {
    local round fork_ms want rss_kb per_key_b budget_kb fit
    for ((round = 0; round < 6; round++)); do
        fork_ms=$(probe_fork_ms)
        note "test fork with $keys keys ($(info_field memory used_memory_rss_human)): $fork_ms ms"
        if ((fork_ms * 10 >= min_fork_ms * 13)); then
            return 0
        fi
        ((round < 5)) || break
        # Aim at 1.6 times the minimum: forks of one dataset vary by about +-40 %.
        if ((fork_ms < 1)); then
            want=$((keys * 4))
        else
            want=$(awk -v k="$keys" -v f="$fork_ms" -v m="$min_fork_ms" \
                'BEGIN { w = k * 1.6 * m / f; if (w > 4 * k) w = 4 * k; printf "%d", w }')
        fi
        rss_kb=$(($(info_field memory used_memory_rss) / 1024))
        per_key_b=$((rss_kb * 1024 / keys + 1))
        budget_kb=$(($(mem_available_kb) * 8 / 10 + rss_kb))
        if ((max_rss_mib > 0 && max_rss_mib * 1024 < budget_kb)); then
            budget_kb=$((max_rss_mib * 1024))
        fi
        # The most keys whose RSS, with a 20 % margin, stays within the budget.
        fit=$((budget_kb * 1024 / 12 * 10 / per_key_b))
        if ((want > fit)); then
            note "$want keys (about $((want * per_key_b / 1048576)) MiB of RSS) would be needed for $min_fork_ms ms; the memory budget here holds $fit"
            # Not worth another round when the budget adds under a tenth.
            ((fit * 10 > keys * 11)) || break
            want=$fit
        fi
        reply=$(rcli DEBUG POPULATE "$want" key "$value_bytes" 2>&1) || die "DEBUG POPULATE failed: $reply"
        [[ $reply == OK ]] || die "DEBUG POPULATE failed: $reply"
        keys=$(rcli DBSIZE)
    done
    if ((fork_ms >= floor_fork_ms)); then
        note "forks take about $fork_ms ms here, under 1.3 x the $min_fork_ms ms asked for but not under the floor of $floor_fork_ms ms: going on with $keys keys"
        return 0
    fi
    printf '%s: error: forks stayed under %s ms (last %s ms with %s keys, the most the memory budget or five rounds allowed)\n' \
        "$prog" "$floor_fork_ms" "$fork_ms" "$keys" >&2
    exit 3
}

workers_running() {
    local pid
    for pid in "${worker_pids[@]}"; do
        kill -0 "$pid" 2>/dev/null && return 0
    done
    return 1
}

t0=$EPOCHREALTIME
note "$keys keys of $value_bytes bytes, $workers workers for $seconds s, BGSAVE every $every s, seed $seed"
start_redis
note "redis-server $(info_field server redis_version) (pid $redis_pid) on 127.0.0.1:$port, dir $tmp_dir"

populate_start=$EPOCHREALTIME
reply=$(rcli DEBUG POPULATE "$keys" key "$value_bytes" 2>&1) || die "DEBUG POPULATE failed: $reply"
[[ $reply == OK ]] || die "DEBUG POPULATE failed: $reply"
dbsize=$(rcli DBSIZE)
[[ $dbsize == "$keys" ]] || die "DEBUG POPULATE loaded $dbsize keys, expected $keys"
rss=$(info_field memory used_memory_rss_human)
note "loaded $dbsize keys in $(since "$populate_start") s; used_memory_rss $rss"
if ((min_fork_ms > 0)); then
    size_dataset
    rss=$(info_field memory used_memory_rss_human)
    note "dataset sized: $keys keys, used_memory_rss $rss"
    # Only the workload's forks go into the latency history and the truth.
    rcli LATENCY RESET fork >/dev/null
fi

php_args=(--server="127.0.0.1:$port" --log="$client_log" --keys="$keys" --seconds="$seconds"
    --workers="$workers" --seed="$seed")
: >"$client_log"
if php -r 'exit(function_exists("pcntl_fork") ? 0 : 1);'; then
    php "$script_dir/mwredis.php" "${php_args[@]}" &
    worker_pids+=("$!")
else
    # No pcntl: one PHP process per worker, appending to the same file.
    for ((w = 0; w < workers; w++)); do
        php "$script_dir/mwredis.php" "${php_args[@]}" --worker="$w" &
        worker_pids+=("$!")
    done
fi
workers_start=$EPOCHREALTIME

# BGSAVE every --every seconds while the workers run, never while one is in progress. The
# first one comes --every seconds after the workers start, so the log has a quiet baseline.
bgsaves=0
next=$(awk -v t="$workers_start" -v e="$every" 'BEGIN { printf "%.6f", t + e }')
while workers_running; do
    # No BGSAVE in the workload's last 2 s: a fork while the workers are ending would stall no
    # client, and a fork the clients cannot show is no test of gapscan (nor of the truth file).
    if [[ $(awk -v n="$next" -v t="$EPOCHREALTIME" -v s="$workers_start" -v d="$seconds" \
        'BEGIN { print (t >= n && t < s + d - 2) }') == 1 ]] && ! bgsave_in_progress; then
        reply=$(rcli BGSAVE 2>&1) || true
        if [[ $reply == "Background saving started" ]]; then
            bgsaves=$((bgsaves + 1))
            # A dataset grown for --min-fork-ms would take longer to write than --every: the
            # child is stopped once the fork (the stall under test) is over.
            if ((min_fork_ms > 0)); then
                for child in $(ps -o pid= --ppid "$redis_pid" 2>/dev/null); do
                    kill -USR1 "$child" 2>/dev/null || true
                done
            fi
        else
            note "BGSAVE refused: $reply"
        fi
        next=$(awk -v t="$EPOCHREALTIME" -v e="$every" 'BEGIN { printf "%.6f", t + e }')
    fi
    sleep 0.05
done

rc=0
for pid in "${worker_pids[@]}"; do
    wait "$pid" || rc=$?
done
worker_pids=()
((rc == 0)) || die "the client workload failed (exit status $rc)"

wait_bgsave 600
[[ $(info_field persistence rdb_last_bgsave_status) == ok ]] ||
    note "warning: the last background save did not succeed (see redis.log)"
total_forks=$(info_field stats total_forks)
latest_fork_usec=$(info_field stats latest_fork_usec)
# Per-second maxima of the fork latency (ms), from Redis's latency monitor.
fork_ms=$(rcli LATENCY HISTORY fork | awk 'NR % 2 == 0 { printf "%s%s", sep, $1; sep = " " }')
if [[ -n $truth_file ]]; then
    {
        printf '# what Redis measured of the forks during the workload (LATENCY HISTORY fork: per-second maxima)\n'
        printf '# keys %s, used_memory_rss %s, workers %s, BGSAVEs sent %s, latest_fork_usec %s\n' \
            "$keys" "$rss" "$workers" "$bgsaves" "$latest_fork_usec"
        printf 'unix_ms\tfork_ms\n'
        rcli LATENCY HISTORY fork | awk 'NR % 2 == 1 { t = $1 } NR % 2 == 0 { printf "%.0f\t%s\n", t * 1000, $1 }'
    } >"$truth_file"
fi
stop_redis

lines=$(wc -l <"$client_log")
requests=$(grep -c ' Request ended after ' "$client_log" || true)
tmp_out=("$(mktemp "$out_dir/.client.log.gz.XXXXXX")" "$(mktemp "$out_dir/.redis.log.XXXXXX")")
gzip -9 -c -- "$client_log" >"${tmp_out[0]}"
cp -- "$redis_log" "${tmp_out[1]}"
chmod 644 -- "${tmp_out[@]}"
mv -f -- "${tmp_out[0]}" "$out_dir/client.log.gz"
mv -f -- "${tmp_out[1]}" "$out_dir/redis.log"
tmp_out=()

note "$out_dir/client.log.gz: $lines lines, $requests requests"
note "$out_dir/redis.log: $(wc -l <"$out_dir/redis.log") lines," \
    "$(grep -c 'Background saving started by pid' "$out_dir/redis.log" || true) 'Background saving started' lines"
note "BGSAVEs sent: $bgsaves; total_forks: $total_forks; latest_fork_usec: $latest_fork_usec;" \
    "fork latency per BGSAVE (ms): ${fork_ms:-none}"
note "used_memory_rss $rss; done in $(since "$t0") s"
