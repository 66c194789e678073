#!/bin/bash
# packet_loss.sh OUTDIR [--control]
#
# A Python server answers short requests on persistent connections; a Python client
# (LOSS_WORKERS threads, 2, each with its own connection) sends LOSS_REQUESTS (400) one-line
# requests, one at a time, and logs op=get with the time each exchange took.
#   (default)   nft in the server namespace drops LOSS_PCT % (5) of the data and ACK segments
#               of those connections at random (numgen random), in each direction; SYNs pass,
#               so every stall is a data segment's recovery: the tail loss probe (one segment in
#               flight: 2·srtt + 200 ms) or the retransmission timeout (≥ 200 ms, doubling).
#   --control   the same run without the drop rules.
# The kernel's own counters (nstat, per namespace) are recorded in truth.tsv: TCPLossProbes,
# TCPLossProbeRecovery, TCPTimeouts, RetransSegs, and the packets nft dropped.
# Writes OUTDIR/client.log, server.log, truth.tsv, nft.txt, nstat-cli.txt, nstat-srv.txt.
set -u
. "$(dirname "$0")/lib.sh"

OUT=${1:?usage: packet_loss.sh OUTDIR [--control]}
MODE=${2:-fault}
case "$MODE" in fault|--control) ;; *) echo "unknown mode $MODE" >&2; exit 2 ;; esac
N=${LOSS_REQUESTS:-400}
W=${LOSS_WORKERS:-2}
PCT=${LOSS_PCT:-5}
PORT=7100
mkdir -p "$OUT"
rm -f "$OUT"/client.log "$OUT"/server.log "$OUT"/truth.tsv "$OUT"/nft.txt "$OUT"/nstat-*.txt

command -v nstat >/dev/null || gs_skip "nstat (iproute2) is not installed"
gs_setup
gs_start "$GS_NS_SRV" "$OUT/server.log" "$GS_PY" -u "$GS_HERE/netfaults.py" rr-server "$GS_SRV_IP" "$PORT"
gs_wait_tcp "$GS_NS_CLI" "$GS_SRV_IP" "$PORT" || exit 1

gs_nft "$GS_NS_SRV" add table inet gsfault
gs_nft "$GS_NS_SRV" add chain inet gsfault input '{ type filter hook input priority -10; policy accept; }'
gs_nft "$GS_NS_SRV" add chain inet gsfault output '{ type filter hook output priority -10; policy accept; }'
gs_nft "$GS_NS_SRV" add rule inet gsfault input tcp dport $PORT 'tcp flags & syn == 0' counter comment '"to-server"'
gs_nft "$GS_NS_SRV" add rule inet gsfault output tcp sport $PORT 'tcp flags & syn == 0' counter comment '"to-client"'
if [ "$MODE" = fault ]; then
    gs_nft "$GS_NS_SRV" add rule inet gsfault input tcp dport $PORT 'tcp flags & syn == 0' \
        numgen random mod 100 '<' "$PCT" counter drop comment '"random-loss-to-server"'
    gs_nft "$GS_NS_SRV" add rule inet gsfault output tcp sport $PORT 'tcp flags & syn == 0' \
        numgen random mod 100 '<' "$PCT" counter drop comment '"random-loss-to-client"'
fi

# the counters start from here (nstat keeps its history per namespace: -n resets it)
ip netns exec "$GS_NS_CLI" nstat -n
ip netns exec "$GS_NS_SRV" nstat -n
gs_run "$GS_NS_CLI" "$OUT/client.log" "$GS_PY" -u "$GS_HERE/netfaults.py" rr-client "$GS_SRV_IP" $PORT "$N" \
    --workers "$W" --pause-ms 2,8 || { echo "client failed ($?)" >&2; exit 1; }
ip netns exec "$GS_NS_CLI" nstat -az >"$OUT/nstat-cli.txt"
ip netns exec "$GS_NS_SRV" nstat -az >"$OUT/nstat-srv.txt"
ip netns exec "$GS_NS_SRV" nft list ruleset >"$OUT/nft.txt"

"$GS_PY" "$GS_HERE/netfaults.py" truth "$OUT/client.log" get --min-ms 150 --class-ms 200 >"$OUT/truth.tsv"
counter() { awk -v k="$2" '$1 == k { print $2; f = 1 } END { if (!f) print 0 }' "$1"; }
for k in TcpExtTCPLossProbes TcpExtTCPLossProbeRecovery TcpExtTCPTimeouts TcpRetransSegs; do
    printf '%s\t%s\n' "kernel_${k}" "$(( $(counter "$OUT/nstat-cli.txt" $k) + $(counter "$OUT/nstat-srv.txt" $k) ))" >>"$OUT/truth.tsv"
done
printf 'nft_dropped\t%s\n' "$(awk '/counter packets [0-9]+ .*drop/ { for (i = 1; i < NF; i++) if ($i == "packets") n += $(i + 1) } END { print n + 0 }' "$OUT/nft.txt")" >>"$OUT/truth.tsv"
cat "$OUT/truth.tsv"
