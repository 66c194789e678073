#!/usr/bin/env bash
# generate.sh: regenerate gapscan's memcached Nagle x delayed-ACK sample logs.
#
# Starts a private memcached on 127.0.0.1, replays the same seeded MediaWiki-like workload
# (mwcache.php) twice and writes:
#   memcached-nagle.log    MediaWiki's default client options (TCP_NODELAY off, noreply
#                          background writes): reads after a background write stall for one
#                          delayed-ACK period of the kernel (40 ms + up to one tick).
#   memcached-nodelay.log  the same workload with 'allow_tcp_nagle_delay' => false
#                          (TCP_NODELAY on): the healthy control.
# Each run gets a freshly started memcached, so both start from an empty cache. Only the
# memcached processes started here are stopped, by pid.
set -euo pipefail

readonly prog=generate.sh
script_dir=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)
readonly script_dir

usage() {
    cat <<EOF
usage: $prog [options]

Options:
  -o, --out DIR        where to write the two logs (default: $script_dir)
  -n, --requests N     simulated web requests per run (default: 40; --quick: 8)
      --ops MIN-MAX    cache calls per request, or a single N (default: 30-80; --quick: 20-30)
  -w, --workers W      concurrent PHP worker processes (default: 4; --quick: 2)
      --seed S         workload seed, the same for both runs (default: 20261129)
  -p, --port P         first TCP port to try for memcached (default: 21211)
      --quick          small run (a few seconds in total) for tests
  -h, --help           show this help
EOF
}

die() {
    printf '%s: error: %s\n' "$prog" "$*" >&2
    exit 1
}

out_dir=$script_dir
requests=
ops=
workers=
seed=20261129
port=21211
quick=0

need_value() {
    [[ $# -ge 2 && -n $2 ]] || die "option $1 needs a value (see --help)"
}

while [[ $# -gt 0 ]]; do
    case $1 in
        -o | --out) need_value "$@"; out_dir=$2; shift 2 ;;
        -n | --requests) need_value "$@"; requests=$2; shift 2 ;;
        --ops) need_value "$@"; ops=$2; shift 2 ;;
        -w | --workers) need_value "$@"; workers=$2; shift 2 ;;
        --seed) need_value "$@"; seed=$2; shift 2 ;;
        -p | --port) need_value "$@"; port=$2; shift 2 ;;
        --quick) quick=1; shift ;;
        -h | --help) usage; exit 0 ;;
        *) usage >&2; die "unknown argument '$1'" ;;
    esac
done

if [[ $quick -eq 1 ]]; then
    : "${requests:=8}" "${ops:=20-30}" "${workers:=2}"
else
    : "${requests:=40}" "${ops:=30-80}" "${workers:=4}"
fi

[[ $requests =~ ^[1-9][0-9]*$ ]] || die "--requests must be a positive integer, got '$requests'"
[[ $workers =~ ^[1-9][0-9]*$ ]] || die "--workers must be a positive integer, got '$workers'"
[[ $seed =~ ^[0-9]+$ ]] || die "--seed must be a non-negative integer, got '$seed'"
[[ $ops =~ ^[1-9][0-9]*(-[1-9][0-9]*)?$ ]] || die "--ops must be N or MIN-MAX, got '$ops'"
if ! [[ $port =~ ^[0-9]+$ ]] || ((port < 1024 || port > 65000)); then
    die "--port must be between 1024 and 65000, got '$port'"
fi

command -v memcached >/dev/null 2>&1 ||
    die "memcached not found in PATH (Debian: apt-get install memcached)"
command -v php >/dev/null 2>&1 ||
    die "php not found in PATH (Debian: apt-get install php-cli)"
php -r 'exit(extension_loaded("memcached") ? 0 : 1);' ||
    die "the PHP memcached extension is not loaded (Debian: apt-get install php-memcached)"
[[ -f $script_dir/mwcache.php ]] || die "missing $script_dir/mwcache.php"

mkdir -p -- "$out_dir"
out_dir=$(cd -- "$out_dir" && pwd)

memcached_pid=
tmp_log=

stop_memcached() {
    if [[ -n $memcached_pid ]]; then
        kill "$memcached_pid" 2>/dev/null || true
        wait "$memcached_pid" 2>/dev/null || true
        memcached_pid=
    fi
}

cleanup() {
    stop_memcached
    if [[ -n $tmp_log ]]; then
        rm -f -- "$tmp_log"
    fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

port_in_use() {
    (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

# memcached refuses to run as root without -u.
memcached_user=()
if [[ $EUID -eq 0 ]]; then
    if id nobody >/dev/null 2>&1; then
        memcached_user=(-u nobody)
    else
        memcached_user=(-u root)
    fi
fi

start_memcached() {
    local first=$port
    while port_in_use "$port"; do
        ((port < first + 50)) || die "no free TCP port in $first-$port"
        port=$((port + 1))
    done
    memcached "${memcached_user[@]}" -l 127.0.0.1 -p "$port" -U 0 -m 64 &
    memcached_pid=$!
    local i
    for ((i = 0; i < 50; i++)); do
        kill -0 "$memcached_pid" 2>/dev/null || {
            memcached_pid=
            die "memcached exited at startup (port $port taken?)"
        }
        port_in_use "$port" && return 0
        sleep 0.1
    done
    die "memcached did not accept connections on 127.0.0.1:$port within 5 s"
}

# TcpExt DelayedACKs of this network namespace (delayed ACKs sent by the kernel).
delayed_acks() {
    awk '$1 == "TcpExt:" { if (!n) { for (i = 1; i <= NF; i++) col[$i] = i; n = 1 }
                           else if ("DelayedACKs" in col) print $col["DelayedACKs"] }' \
        /proc/net/netstat 2>/dev/null || true
}

run_mode() {
    local mode=$1 name=$2
    local before after
    start_memcached
    tmp_log=$(mktemp "$out_dir/.$name.XXXXXX")
    before=$(delayed_acks)
    local args=(--server="127.0.0.1:$port" --mode="$mode" --log="$tmp_log"
        --requests="$requests" --ops="$ops" --workers="$workers" --seed="$seed")
    if php -r 'exit(function_exists("pcntl_fork") ? 0 : 1);'; then
        php "$script_dir/mwcache.php" "${args[@]}" || die "workload failed ($mode)"
    else
        # No pcntl: one PHP process per worker, appending to the same file.
        local pids=() w
        for ((w = 0; w < workers; w++)); do
            php "$script_dir/mwcache.php" "${args[@]}" --worker="$w" &
            pids+=("$!")
        done
        for w in "${pids[@]}"; do
            wait "$w" || die "workload worker (pid $w) failed ($mode)"
        done
    fi
    after=$(delayed_acks)
    stop_memcached
    chmod 644 -- "$tmp_log"
    mv -f -- "$tmp_log" "$out_dir/$name"
    tmp_log=
    local lines
    lines=$(wc -l <"$out_dir/$name")
    if [[ -n $before && -n $after ]]; then
        printf '%s: %s: %d lines; kernel sent %d delayed ACKs during the run\n' \
            "$prog" "$out_dir/$name" "$lines" "$((after - before))" >&2
    else
        printf '%s: %s: %d lines\n' "$prog" "$out_dir/$name" "$lines" >&2
    fi
}

printf '%s: %d requests x %s cache calls, %d workers, seed %s\n' \
    "$prog" "$requests" "$ops" "$workers" "$seed" >&2
run_mode nagle memcached-nagle.log
run_mode nodelay memcached-nodelay.log
