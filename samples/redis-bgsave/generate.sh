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
      --keys N         keys loaded with DEBUG POPULATE N key 100 (default: 6000000,
                       about 1 GB of RSS, forks of about 20 ms; --quick: 1000000)
      --seconds S      how long the client workers run (default: 60; --quick: 16)
  -w, --workers W      concurrent PHP worker processes (default: 3; --quick: 3)
      --every S        seconds between BGSAVE commands; a BGSAVE is only sent when none is
                       in progress (default: 3; --quick: 2)
      --seed S         workload seed (default: 20261130)
  -p, --port P         first TCP port to try for redis-server (default: 26379)
      --quick          small run (about 20 s in total) for tests
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
seconds=
workers=
every=
seed=20261130
port=26379
quick=0

need_value() {
    [[ $# -ge 2 && -n $2 ]] || die "option $1 needs a value (see --help)"
}

while [[ $# -gt 0 ]]; do
    case $1 in
        -o | --out) need_value "$@"; out_dir=$2; shift 2 ;;
        --keys) need_value "$@"; keys=$2; shift 2 ;;
        --seconds) need_value "$@"; seconds=$2; shift 2 ;;
        -w | --workers) need_value "$@"; workers=$2; shift 2 ;;
        --every) need_value "$@"; every=$2; shift 2 ;;
        --seed) need_value "$@"; seed=$2; shift 2 ;;
        -p | --port) need_value "$@"; port=$2; shift 2 ;;
        --quick) quick=1; shift ;;
        -h | --help) usage; exit 0 ;;
        *) usage >&2; die "unknown argument '$1'" ;;
    esac
done

if [[ $quick -eq 1 ]]; then
    : "${keys:=1000000}" "${seconds:=16}" "${workers:=3}" "${every:=2}"
else
    : "${keys:=6000000}" "${seconds:=60}" "${workers:=3}" "${every:=3}"
fi

if ! [[ $keys =~ ^[1-9][0-9]{0,9}$ ]] || ((keys < 5)); then
    die "--keys must be an integer >= 5, got '$keys'"
fi
[[ $seconds =~ ^[1-9][0-9]{0,5}$ ]] || die "--seconds must be a positive integer, got '$seconds'"
[[ $workers =~ ^[1-9][0-9]{0,2}$ ]] || die "--workers must be an integer from 1 to 999, got '$workers'"
[[ $every =~ ^[1-9][0-9]{0,5}$ ]] || die "--every must be a positive integer, got '$every'"
[[ $seed =~ ^[0-9]{1,12}$ ]] || die "--seed must be a non-negative integer, got '$seed'"
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

workers_running() {
    local pid
    for pid in "${worker_pids[@]}"; do
        kill -0 "$pid" 2>/dev/null && return 0
    done
    return 1
}

t0=$EPOCHREALTIME
note "$keys keys, $workers workers for $seconds s, BGSAVE every $every s, seed $seed"
start_redis
note "redis-server $(info_field server redis_version) (pid $redis_pid) on 127.0.0.1:$port, dir $tmp_dir"

populate_start=$EPOCHREALTIME
reply=$(rcli DEBUG POPULATE "$keys" key 100 2>&1) || die "DEBUG POPULATE failed: $reply"
[[ $reply == OK ]] || die "DEBUG POPULATE failed: $reply"
dbsize=$(rcli DBSIZE)
[[ $dbsize == "$keys" ]] || die "DEBUG POPULATE loaded $dbsize keys, expected $keys"
rss=$(info_field memory used_memory_rss_human)
note "loaded $dbsize keys in $(since "$populate_start") s; used_memory_rss $rss"

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
    if [[ $(awk -v n="$next" -v t="$EPOCHREALTIME" 'BEGIN { print (t >= n) }') == 1 ]] &&
        ! bgsave_in_progress; then
        reply=$(rcli BGSAVE 2>&1) || true
        if [[ $reply == "Background saving started" ]]; then
            bgsaves=$((bgsaves + 1))
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
