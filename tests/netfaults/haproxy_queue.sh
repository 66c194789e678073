#!/bin/bash
# haproxy_queue.sh OUTDIR [--control]
#
# HAProxy (Debian's haproxy, 2.6) in the client namespace in `mode http` with `option httplog`,
# in front of the Python http.server in the server namespace, which takes a random
# QUEUE_WORK_MS (5,60) ms per request (its own work). QUEUE_WORKERS (6) Python clients send
# QUEUE_REQUESTS (240) GETs to HAProxy in parallel, a fresh connection each, pausing a random
# QUEUE_PAUSE_MS (2,120) ms after each, so that the number waiting ahead varies from 0 to 5.
#   (default)   the backend's server line has `maxconn 1`: HAProxy sends it one request at a
#               time and the others wait in its queue (the srv_queue/backend_queue fields of the
#               log line count them). Their Tw (time in the queue, the 2nd of TR/Tw/Tc/Tr/Ta)
#               is no fixed delay: it spreads from 0 to several backend times, as many as
#               wait ahead. Saturation, not a timeout.
#   --control   the same clients with `maxconn 100`: nothing waits, Tw = 0.
# No packet is dropped; nft only counts the backend connections.
# Logs as haproxy_syn_drop.sh: haproxy.log (raw httplog lines, scanned: OUTDIR/scan-target),
# haproxy-syslog.log (rfc3164). truth.tsv: HAProxy's own Tw (queue) and Tr (backend) times.
# Writes OUTDIR/haproxy.log, haproxy-syslog.log, haproxy.cfg, haproxy.err, haproxy-version.txt,
# client.log, server.log, truth.tsv, nft.txt, scan-target.
set -u
. "$(dirname "$0")/lib.sh"

OUT=${1:?usage: haproxy_queue.sh OUTDIR [--control]}
MODE=${2:-fault}
case "$MODE" in fault|--control) ;; *) echo "unknown mode $MODE" >&2; exit 2 ;; esac
N=${QUEUE_REQUESTS:-240}
W=${QUEUE_WORKERS:-6}
WORK_MS=${QUEUE_WORK_MS:-5,60}
PAUSE_MS=${QUEUE_PAUSE_MS:-2,120}
PORT=8080       # the backend, server namespace
FE_PORT=8100    # HAProxy's frontend, 127.0.0.1 in the client namespace
MAXCONN=1
[ "$MODE" = --control ] && MAXCONN=100
mkdir -p "$OUT"
rm -f "$OUT"/haproxy.log "$OUT"/haproxy-syslog.log "$OUT"/haproxy.cfg "$OUT"/haproxy.err \
    "$OUT"/haproxy-version.txt "$OUT"/client.log "$OUT"/server.log "$OUT"/truth.tsv "$OUT"/nft.txt \
    "$OUT"/scan-target

HAPROXY=$(command -v haproxy || command -v /usr/sbin/haproxy) ||
    gs_skip "haproxy is not installed (apt-get install haproxy)"
gs_setup

gs_start "$GS_NS_SRV" "$OUT/server.log" "$GS_PY" -u "$GS_HERE/netfaults.py" http-server "$GS_SRV_IP" $PORT \
    --delay-ms "$WORK_MS"
gs_wait_tcp "$GS_NS_CLI" "$GS_SRV_IP" $PORT || exit 1
gs_haproxy_start "$OUT" $FE_PORT "maxconn $MAXCONN" "timeout queue 30s" || exit 1

gs_nft "$GS_NS_SRV" add table inet gsfault
gs_nft "$GS_NS_SRV" add chain inet gsfault input '{ type filter hook input priority -10; policy accept; }'
gs_nft "$GS_NS_SRV" add rule inet gsfault input tcp dport $PORT 'tcp flags & (syn | ack) == syn' counter comment '"syns"'

gs_run "$GS_NS_CLI" "$OUT/client.log" "$GS_PY" -u "$GS_HERE/netfaults.py" http-client 127.0.0.1 $FE_PORT "$N" \
    --workers "$W" --pause-ms "$PAUSE_MS" || { echo "client failed ($?)" >&2; exit 1; }
gs_sleep 0.2   # HAProxy writes a request's line when it ends: let the last ones land
ip netns exec "$GS_NS_SRV" nft list ruleset >"$OUT/nft.txt"
echo haproxy.log >"$OUT/scan-target"

# Tw: "slow" is a wait of at least one longest backend time (60 ms), in classes of 50 ms
"$GS_PY" "$GS_HERE/netfaults.py" truth "$OUT/haproxy.log" queue --from haproxy --key Tw \
    --min-ms 60 --class-ms 50 --percentiles >"$OUT/truth.tsv"
"$GS_PY" "$GS_HERE/netfaults.py" truth "$OUT/haproxy.log" backend --from haproxy --key Tr \
    --percentiles | sed -n 's/^\(p[0-9]*_ms\|max_ms\)\t/tr_\1\t/p' >>"$OUT/truth.tsv"
# srv_queue/backend_queue: the requests that waited ahead of this one (HAProxy queues a request
# without persistence in the backend's queue)
awk '/"GET / { for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\/[0-9]+$/) { split($i, q, "/"); if (q[1] + 0 > s) s = q[1] + 0; if (q[2] + 0 > b) b = q[2] + 0; if (q[2] + 0 > 0) n++; break } }
     END { printf "max_srv_queue\t%d\nmax_backend_queue\t%d\nqueued_behind_others\t%d\n", s, b, n }' "$OUT/haproxy.log" >>"$OUT/truth.tsv"
printf 'server_maxconn\t%s\n' "$MAXCONN" >>"$OUT/truth.tsv"
printf 'workers\t%s\n' "$W" >>"$OUT/truth.tsv"
printf 'log_lines\t%s\n' "$(grep -c '"GET / HTTP/1.1"' "$OUT/haproxy.log")" >>"$OUT/truth.tsv"
printf 'client_gets\t%s\n' "$(grep -c ' op=get ' "$OUT/client.log")" >>"$OUT/truth.tsv"
printf 'client_errors\t%s\n' "$(grep -c 'level=error' "$OUT/client.log")" >>"$OUT/truth.tsv"
printf 'nft_syns\t%s\n' "$(awk '/comment "syns"/ { for (i = 1; i < NF; i++) if ($i == "packets") print $(i + 1) }' "$OUT/nft.txt")" >>"$OUT/truth.tsv"
printf 'haproxy\t%s\n' "$(cat "$OUT/haproxy-version.txt")" >>"$OUT/truth.tsv"
cat "$OUT/truth.tsv"
