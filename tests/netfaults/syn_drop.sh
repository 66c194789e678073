#!/bin/bash
# syn_drop.sh OUTDIR [--control | --outage]
#
# A Python line server in the server namespace; a Python client in the client namespace opens
# a fresh TCP connection per request and logs op=connect / op=get with the times it measured.
#   (default)   nft in the server namespace drops SYN_DROP_PCT % (20) of the SYNs to the port,
#               at random (numgen random): connect() waits for the SYN retransmission, 1 s
#               (with the kernel's default tcp_syn_linear_timeouts=4 the next ones come 1 s
#               apart: 1, 2, 3 … s).
#   --control   the same run without the rule.
#   --outage    classic backoff in the client namespace (tcp_syn_linear_timeouts=0) and ALL
#               SYNs dropped for OUTAGE_S (5) seconds: the connection that starts in the outage
#               sends SYNs at 0, 1, 3, 7 s; an AF_PACKET sniffer in the server namespace logs
#               each SYN (it sees them before netfilter drops them).
# Writes OUTDIR/client.log, server.log, truth.tsv (measured connect times), nft.txt.
set -u
. "$(dirname "$0")/lib.sh"

OUT=${1:?usage: syn_drop.sh OUTDIR [--control|--outage]}
MODE=${2:-fault}
case "$MODE" in fault|--control|--outage) ;; *) echo "unknown mode $MODE" >&2; exit 2 ;; esac
N=${SYN_REQUESTS:-150}
PCT=${SYN_DROP_PCT:-20}
OUTAGE_S=${OUTAGE_S:-5}
PORT=7000
mkdir -p "$OUT"
rm -f "$OUT"/client.log "$OUT"/server.log "$OUT"/sniff.log "$OUT"/truth.tsv "$OUT"/nft.txt

gs_setup
gs_start "$GS_NS_SRV" "$OUT/server.log" "$GS_PY" -u "$GS_HERE/netfaults.py" tcp-server "$GS_SRV_IP" "$PORT"
gs_wait_tcp "$GS_NS_CLI" "$GS_SRV_IP" "$PORT" || exit 1

gs_nft "$GS_NS_SRV" add table inet gsfault
gs_nft "$GS_NS_SRV" add chain inet gsfault input '{ type filter hook input priority -10; policy accept; }'
gs_nft "$GS_NS_SRV" add rule inet gsfault input tcp dport $PORT 'tcp flags & (syn | ack) == syn' counter comment '"syns"'

case "$MODE" in
fault)
    gs_nft "$GS_NS_SRV" add rule inet gsfault input tcp dport $PORT 'tcp flags & (syn | ack) == syn' \
        numgen random mod 100 '<' "$PCT" counter drop comment '"random-syn-drop"'
    gs_run "$GS_NS_CLI" "$OUT/client.log" "$GS_PY" -u "$GS_HERE/netfaults.py" syn-client "$GS_SRV_IP" $PORT "$N" \
        --pause-ms 2,8 || { echo "client failed ($?)" >&2; exit 1; }
    ;;
--control)
    gs_run "$GS_NS_CLI" "$OUT/client.log" "$GS_PY" -u "$GS_HERE/netfaults.py" syn-client "$GS_SRV_IP" $PORT "$N" \
        --pause-ms 2,8 || { echo "client failed ($?)" >&2; exit 1; }
    ;;
--outage)
    ip netns exec "$GS_NS_CLI" sysctl -qw net.ipv4.tcp_syn_linear_timeouts=0 2>/dev/null ||
        gs_log "no tcp_syn_linear_timeouts on this kernel: classic backoff already"
    gs_start "$GS_NS_SRV" "$OUT/sniff.log" "$GS_PY" -u "$GS_HERE/netfaults.py" syn-sniff veth1 $PORT
    sleep 0.3
    ip netns exec "$GS_NS_CLI" "$GS_PY" -u "$GS_HERE/netfaults.py" syn-client "$GS_SRV_IP" $PORT 60 \
        --pause-ms 20,30 >"$OUT/client.log" &
    CLIENT=$!
    GS_PIDS+=("$CLIENT")
    gs_sleep 0.5
    gs_nft "$GS_NS_SRV" add rule inet gsfault input tcp dport $PORT 'tcp flags & (syn | ack) == syn' \
        counter drop comment '"outage"'
    gs_sleep "$OUTAGE_S"
    h=$(ip netns exec "$GS_NS_SRV" nft -a list chain inet gsfault input | sed -n 's/.*comment "outage".*# handle \([0-9]*\).*/\1/p')
    ip netns exec "$GS_NS_SRV" nft list chain inet gsfault input >"$OUT/nft.txt"
    gs_nft "$GS_NS_SRV" delete rule inet gsfault input handle "$h"
    wait "$CLIENT"
    gs_forget "$CLIENT"
    sleep 0.2
    ;;
esac

[ -f "$OUT/nft.txt" ] || ip netns exec "$GS_NS_SRV" nft list ruleset >"$OUT/nft.txt"
"$GS_PY" "$GS_HERE/netfaults.py" truth "$OUT/client.log" connect --min-ms 900 >"$OUT/truth.tsv"
if [ "$MODE" = --outage ]; then
    "$GS_PY" "$GS_HERE/netfaults.py" syn-offsets "$OUT/sniff.log" >>"$OUT/truth.tsv"
fi
cat "$OUT/truth.tsv"
