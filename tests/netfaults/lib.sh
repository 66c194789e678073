# lib.sh - network namespaces for gapscan's network-fault tests (source it, do not run it).
#
#   gs_setup                 two namespaces gs-cli-$$ / gs-srv-$$ joined by a veth pair:
#                            client 10.213.1.2/24 (veth0), server 10.213.1.1/24 (veth1)
#   gs_nft NS ARGS...        nft inside namespace NS; skips the test (77) if nft is refused
#   gs_start NS LOG CMD...   starts CMD in NS in the background, records its pid for cleanup
#   gs_run NS OUT CMD...     runs CMD in NS to completion (interruptible), stdout to OUT
#                            (NS "-": outside the namespaces, for a test that needs none)
#   gs_host_setup            the cleanup trap alone, for a test that makes no namespace
#   gs_stop PID [SECONDS]    SIGTERM, waits up to SECONDS (10) for the exit, then SIGKILL: a
#                            server that must shut down cleanly (a database) before its logs
#                            are read
#   gs_skip MESSAGE          prints "skipped: MESSAGE" and exits 77
#
# Cleanup (trap on EXIT, INT, TERM) removes exactly what was made: the processes gs_start
# started (by pid), then any process still inside our two namespaces (by pid, from
# `ip netns pids`), the namespaces themselves (the veth pair and every nft rule live inside
# them, so they go with them) and /etc/netns/<ns> if we created it.

GS_NS_CLI="gs-cli-$$"
GS_NS_SRV="gs-srv-$$"
GS_SRV_IP=10.213.1.1
GS_CLI_IP=10.213.1.2
GS_PREFIX=24
GS_HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
if [ -z "${GS_PY:-}" ]; then GS_PY=$(command -v /usr/bin/python3 || command -v python3); fi

GS_PIDS=()
GS_MADE_NS=()
GS_MADE_ETC=()
GS_MADE_ETC_NETNS=

gs_log() { printf '%s\n' "$*" >&2; }

gs_skip() {
    printf 'skipped: %s\n' "$*"
    exit 77
}

gs_cleanup() {
    local rc=$? pid ns d
    trap - EXIT INT TERM
    for pid in "${GS_PIDS[@]}"; do
        kill "$pid" 2>/dev/null
    done
    for pid in "${GS_PIDS[@]}"; do
        for _ in 1 2 3 4 5 6 7 8 9 10; do
            kill -0 "$pid" 2>/dev/null || break
            sleep 0.1
        done
        kill -9 "$pid" 2>/dev/null
        wait "$pid" 2>/dev/null
    done
    for ns in "${GS_MADE_NS[@]}"; do
        # anything still running inside a namespace we made is ours: end it by pid
        for pid in $(ip netns pids "$ns" 2>/dev/null); do
            kill -9 "$pid" 2>/dev/null
        done
        ip netns del "$ns" 2>/dev/null || gs_log "cleanup: could not delete namespace $ns"
    done
    for d in "${GS_MADE_ETC[@]}"; do
        rm -rf -- "$d"
    done
    [ -n "${GS_MADE_ETC_NETNS:-}" ] && rmdir /etc/netns 2>/dev/null
    exit "$rc"
}

# gs_host_setup: a test without namespaces (a real server on a unix socket or 127.0.0.1)
# still stops exactly what it started, on any exit
gs_host_setup() {
    trap gs_cleanup EXIT
    trap 'exit 130' INT
    trap 'exit 143' TERM
}

gs_add_ns() {
    local ns=$1 err
    if ! err=$(ip netns add "$ns" 2>&1); then
        gs_skip "the kernel refused a network namespace (ip netns add $ns: ${err:-failed})"
    fi
    GS_MADE_NS+=("$ns")
}

gs_setup() {
    [ "$(id -u)" = 0 ] || gs_skip "network namespaces need root"
    command -v ip >/dev/null || gs_skip "ip (iproute2) is not installed"
    command -v nft >/dev/null || gs_skip "nft (nftables) is not installed"
    trap gs_cleanup EXIT
    trap 'exit 130' INT
    trap 'exit 143' TERM
    gs_add_ns "$GS_NS_CLI"
    gs_add_ns "$GS_NS_SRV"
    local err
    if ! err=$(ip -n "$GS_NS_CLI" link add veth0 type veth peer name veth1 netns "$GS_NS_SRV" 2>&1); then
        gs_skip "the kernel refused a veth pair between namespaces ($err)"
    fi
    ip -n "$GS_NS_CLI" link set lo up
    ip -n "$GS_NS_SRV" link set lo up
    ip -n "$GS_NS_CLI" addr add "$GS_CLI_IP/$GS_PREFIX" dev veth0
    ip -n "$GS_NS_SRV" addr add "$GS_SRV_IP/$GS_PREFIX" dev veth1
    ip -n "$GS_NS_CLI" link set veth0 up
    ip -n "$GS_NS_SRV" link set veth1 up
    # nft must work inside the namespace, or the fault cannot be injected: skip, do not fake
    gs_nft "$GS_NS_SRV" add table inet gsprobe
    gs_nft "$GS_NS_SRV" delete table inet gsprobe
    # wait for the link (no DAD on IPv4, but the veth carrier takes a moment)
    local i
    for i in $(seq 1 50); do
        ip netns exec "$GS_NS_CLI" "$GS_PY" -c "
import socket,sys
s=socket.socket(socket.AF_INET,socket.SOCK_DGRAM)
s.connect(('$GS_SRV_IP',9))
" 2>/dev/null && ip -n "$GS_NS_CLI" link show veth0 | grep -q 'state UP' && break
        sleep 0.05
    done
}

gs_nft() {
    local ns=$1 err
    shift
    if ! err=$(ip netns exec "$ns" nft "$@" 2>&1); then
        gs_skip "nft refused inside namespace $ns (nft $*: $err)"
    fi
    [ -n "$err" ] && printf '%s\n' "$err"
    return 0
}

# gs_start NS LOGFILE CMD...  (ip netns exec execs CMD, so $! is CMD's pid; NS "-": no namespace)
gs_start() {
    local ns=$1 log=$2
    shift 2
    if [ "$ns" = - ]; then
        "$@" >>"$log" 2>&1 &
    else
        ip netns exec "$ns" "$@" >>"$log" 2>&1 &
    fi
    GS_PIDS+=("$!")
    GS_LAST_PID=$!
}

# gs_forget PID: a process we waited for (reaped) must not be signalled later: its pid may
# belong to someone else by then
gs_forget() {
    local keep=() p
    for p in "${GS_PIDS[@]}"; do [ "$p" = "$1" ] || keep+=("$p"); done
    GS_PIDS=("${keep[@]}")
}

# gs_run NS OUTFILE CMD...: runs CMD in NS to completion, stdout to OUTFILE. It runs in the
# background and is waited for, so that INT/TERM interrupt the wait and clean up at once
# (bash defers traps until a foreground command ends).
gs_run() {
    local ns=$1 out=$2 pid rc
    shift 2
    if [ "$ns" = - ]; then
        "$@" >"$out" &
    else
        ip netns exec "$ns" "$@" >"$out" &
    fi
    pid=$!
    GS_PIDS+=("$pid")
    wait "$pid"
    rc=$?
    gs_forget "$pid"
    return $rc
}

# gs_stop PID [SECONDS]: ends a process gs_start started, cleanly if it can: SIGTERM, up to
# SECONDS (10) for it to exit, then SIGKILL; reaped and forgotten either way
gs_stop() {
    local pid=$1 i
    kill "$pid" 2>/dev/null
    for i in $(seq 1 $((${2:-10} * 10))); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
    done
    kill -9 "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
    gs_forget "$pid"
}

# gs_sleep SECONDS: an interruptible sleep
gs_sleep() {
    local pid
    sleep "$1" &
    pid=$!
    GS_PIDS+=("$pid")
    wait "$pid"
    gs_forget "$pid"
}

# gs_etc_netns NS FILE CONTENT: /etc/netns/NS/FILE, bind-mounted over /etc/FILE by ip netns exec
gs_etc_netns() {
    local ns=$1 file=$2 content=$3 d="/etc/netns/$1"
    if [ ! -d /etc/netns ]; then
        mkdir /etc/netns
        GS_MADE_ETC_NETNS=1
    fi
    if [ ! -d "$d" ]; then
        mkdir "$d"
        GS_MADE_ETC+=("$d")
    fi
    printf '%s' "$content" >"$d/$file"
}

# gs_wait_tcp NS IP PORT: wait until something listens (up to 5 s)
gs_wait_tcp() {
    local ns=$1 ip=$2 port=$3 i
    for i in $(seq 1 100); do
        ip netns exec "$ns" "$GS_PY" - "$ip" "$port" <<'EOF' 2>/dev/null && return 0
import socket, sys
s = socket.create_connection((sys.argv[1], int(sys.argv[2])), timeout=0.5)
s.close()
EOF
        sleep 0.05
    done
    gs_log "nothing listens on $ip:$port in $ns"
    return 1
}

# gs_haproxy_start OUT FE_PORT SERVER_OPTIONS [DEFAULTS_LINE]
#   HAProxy ($HAPROXY) in the client namespace in mode http with option httplog, a new backend
#   connection per request (http-server-close, http-reuse never), the X-Request-Id header
#   captured, one server $GS_SRV_IP:$PORT with SERVER_OPTIONS ("maxconn 1", or ""), on
#   127.0.0.1:FE_PORT; DEFAULTS_LINE is added to its defaults ("timeout queue 30s"). It logs
#   raw httplog lines to OUT/haproxy.log (stdout) and rfc3164 ones to OUT/haproxy-syslog.log
#   (fd 3); writes OUT/haproxy.cfg and OUT/haproxy-version.txt; returns when it listens.
gs_haproxy_start() {
    local out=$1 fe_port=$2 server_options=$3 defaults_line=${4:-}
    cat >"$out/haproxy.cfg" <<EOF_CFG
global
    log stdout format raw local0
    log fd@3 format rfc3164 local0
    maxconn 512

defaults
    mode http
    log global
    option httplog
    option dontlognull
    option http-server-close
    http-reuse never
    timeout connect 5s
    timeout client 30s
    timeout server 30s
    $defaults_line

frontend fe
    bind 127.0.0.1:$fe_port
    http-request capture req.hdr(X-Request-Id) len 40
    default_backend be

backend be
    server srv1 $GS_SRV_IP:$PORT $server_options
EOF_CFG
    "$HAPROXY" -v | head -n 1 >"$out/haproxy-version.txt"
    "$HAPROXY" -c -q -f "$out/haproxy.cfg" >"$out/haproxy.err" 2>&1 ||
        { echo "haproxy rejected its config: $(cat "$out/haproxy.err")" >&2; return 1; }
    # stdout: the raw log; fd 3: the rfc3164 one; stderr: HAProxy's own notices (sh execs
    # haproxy, so the recorded pid is HAProxy's)
    gs_start "$GS_NS_CLI" "$out/haproxy.log" sh -c 'exec "$1" -db -f "$2" 3>>"$3" 2>>"$4"' sh \
        "$HAPROXY" "$out/haproxy.cfg" "$out/haproxy-syslog.log" "$out/haproxy.err"
    gs_wait_tcp "$GS_NS_CLI" 127.0.0.1 "$fe_port"
}
