#!/bin/bash
# haproxy_syn_drop.sh OUTDIR [--control]
#
# A real HAProxy (Debian's haproxy, 2.6) in the client namespace in `mode http` with
# `option httplog`, in front of the Python http.server in the server namespace. The Python
# client (HAP_WORKERS threads, 3) sends HAP_REQUESTS (150) GETs to HAProxy on 127.0.0.1, each
# on a fresh connection with its own X-Request-Id, which HAProxy captures into its log line.
# `option http-server-close` and `http-reuse never`: every request opens a new connection
# to the backend, and HAProxy's Tc timer (the 3rd of TR/Tw/Tc/Tr/Ta) is that connect().
#   (default)   nft in the server namespace drops SYN_DROP_PCT % (20) of the SYNs to the
#               backend port at random (numgen random): the kernel sends the SYN again after
#               1 s, so about a fifth of the requests log Tc ≈ 1000 ms (2000 ms when both
#               SYNs are dropped); `timeout connect 5s` leaves that to the kernel.
#   --control   the same run without the rule.
# HAProxy logs every request in the default httplog format to two files:
#   haproxy.log          `log stdout format raw`: the httplog line alone (what `log stdout`
#                        gives in a container, and what follows "haproxy[pid]: " in syslog)
#   haproxy-syslog.log   `log fd@3 format rfc3164`: the same lines with the syslog header
#                        (<134>Dec  7 10:00:00 host haproxy[pid]: …)
# gapscan scans haproxy.log (named in OUTDIR/scan-target); truth.tsv is HAProxy's own Tc.
# Writes OUTDIR/haproxy.log, haproxy-syslog.log, haproxy.cfg, haproxy.err, haproxy-version.txt,
# client.log, server.log, truth.tsv, nft.txt, scan-target.
set -u
. "$(dirname "$0")/lib.sh"

OUT=${1:?usage: haproxy_syn_drop.sh OUTDIR [--control]}
MODE=${2:-fault}
case "$MODE" in fault|--control) ;; *) echo "unknown mode $MODE" >&2; exit 2 ;; esac
N=${HAP_REQUESTS:-150}
W=${HAP_WORKERS:-3}
PCT=${SYN_DROP_PCT:-20}
PORT=8080       # the backend, server namespace
FE_PORT=8100    # HAProxy's frontend, 127.0.0.1 in the client namespace
mkdir -p "$OUT"
rm -f "$OUT"/haproxy.log "$OUT"/haproxy-syslog.log "$OUT"/haproxy.cfg "$OUT"/haproxy.err \
    "$OUT"/haproxy-version.txt "$OUT"/client.log "$OUT"/server.log "$OUT"/truth.tsv "$OUT"/nft.txt \
    "$OUT"/scan-target

HAPROXY=$(command -v haproxy || command -v /usr/sbin/haproxy) ||
    gs_skip "haproxy is not installed (apt-get install haproxy)"
gs_setup

gs_start "$GS_NS_SRV" "$OUT/server.log" "$GS_PY" -u "$GS_HERE/netfaults.py" http-server "$GS_SRV_IP" $PORT
gs_wait_tcp "$GS_NS_CLI" "$GS_SRV_IP" $PORT || exit 1
gs_haproxy_start "$OUT" $FE_PORT "" || exit 1

gs_nft "$GS_NS_SRV" add table inet gsfault
gs_nft "$GS_NS_SRV" add chain inet gsfault input '{ type filter hook input priority -10; policy accept; }'
gs_nft "$GS_NS_SRV" add rule inet gsfault input tcp dport $PORT 'tcp flags & (syn | ack) == syn' counter comment '"syns"'
if [ "$MODE" = fault ]; then
    gs_nft "$GS_NS_SRV" add rule inet gsfault input tcp dport $PORT 'tcp flags & (syn | ack) == syn' \
        numgen random mod 100 '<' "$PCT" counter drop comment '"random-syn-drop"'
fi

gs_run "$GS_NS_CLI" "$OUT/client.log" "$GS_PY" -u "$GS_HERE/netfaults.py" http-client 127.0.0.1 $FE_PORT "$N" \
    --workers "$W" --pause-ms 2,8 || { echo "client failed ($?)" >&2; exit 1; }
gs_sleep 0.2   # HAProxy writes a request's line when it ends: let the last ones land
ip netns exec "$GS_NS_SRV" nft list ruleset >"$OUT/nft.txt"
echo haproxy.log >"$OUT/scan-target"

"$GS_PY" "$GS_HERE/netfaults.py" truth "$OUT/haproxy.log" connect --from haproxy --key Tc \
    --min-ms 900 >"$OUT/truth.tsv"
printf 'log_lines\t%s\n' "$(grep -c '"GET / HTTP/1.1"' "$OUT/haproxy.log")" >>"$OUT/truth.tsv"
printf 'client_gets\t%s\n' "$(grep -c ' op=get ' "$OUT/client.log")" >>"$OUT/truth.tsv"
printf 'client_slow_ge_900ms\t%s\n' "$(awk '/ op=get / { for (i = 1; i <= NF; i++) if ($i ~ /^ms=/ && substr($i, 4) + 0 >= 900) n++ } END { print n + 0 }' "$OUT/client.log")" >>"$OUT/truth.tsv"
printf 'client_errors\t%s\n' "$(grep -c 'level=error' "$OUT/client.log")" >>"$OUT/truth.tsv"
printf 'nft_syns\t%s\n' "$(awk '/comment "syns"/ { for (i = 1; i < NF; i++) if ($i == "packets") print $(i + 1) }' "$OUT/nft.txt")" >>"$OUT/truth.tsv"
printf 'nft_dropped\t%s\n' "$(awk '/counter packets [0-9]+ .*drop/ { for (i = 1; i < NF; i++) if ($i == "packets") n += $(i + 1) } END { print n + 0 }' "$OUT/nft.txt")" >>"$OUT/truth.tsv"
printf 'haproxy\t%s\n' "$(cat "$OUT/haproxy-version.txt")" >>"$OUT/truth.tsv"
cat "$OUT/truth.tsv"
