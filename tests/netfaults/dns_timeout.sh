#!/bin/bash
# dns_timeout.sh OUTDIR [--control]
#
# dnsmasq in the server namespace answers svc.gapscan.test (A 10.213.1.1), and a Python
# http.server listens there. The client namespace gets its own /etc/resolv.conf the way
# `ip netns exec` provides one (a bind mount of /etc/netns/<ns>/resolv.conf):
#   (default)   first a nameserver that never answers (10.213.1.3, on the server's veth, with
#               nft dropping everything to its port 53, so no ICMP tells the client either),
#               then dnsmasq (10.213.1.1): glibc waits its 5 s timeout on the first, then asks
#               the second.
#   --control   dnsmasq first, the dead one second.
# The Python client (DNS_WORKERS threads, 3) resolves the name with socket.getaddrinfo per
# request, then GETs / over a fresh connection; it logs op=resolve / op=connect / op=get.
# Writes OUTDIR/client.log, http.log, dnsmasq.log, truth.tsv, nft.txt, resolv.conf.
set -u
. "$(dirname "$0")/lib.sh"

OUT=${1:?usage: dns_timeout.sh OUTDIR [--control]}
MODE=${2:-fault}
case "$MODE" in fault|--control) ;; *) echo "unknown mode $MODE" >&2; exit 2 ;; esac
N=${DNS_REQUESTS:-27}
W=${DNS_WORKERS:-3}
NAME=svc.gapscan.test
DEAD_IP=10.213.1.3
HTTP_PORT=8080
mkdir -p "$OUT"
rm -f "$OUT"/client.log "$OUT"/http.log "$OUT"/dnsmasq.log "$OUT"/truth.tsv "$OUT"/nft.txt "$OUT"/resolv.conf

command -v dnsmasq >/dev/null || gs_skip "dnsmasq is not installed (apt-get install dnsmasq-base)"
gs_setup

# the address that never answers: on the server's veth (so ARP answers and nothing says
# "unreachable"), every packet to its port 53 dropped
ip -n "$GS_NS_SRV" addr add "$DEAD_IP/$GS_PREFIX" dev veth1
gs_nft "$GS_NS_SRV" add table inet gsfault
gs_nft "$GS_NS_SRV" add chain inet gsfault input '{ type filter hook input priority -10; policy accept; }'
gs_nft "$GS_NS_SRV" add rule inet gsfault input ip daddr $DEAD_IP udp dport 53 counter drop comment '"dead-nameserver-udp"'
gs_nft "$GS_NS_SRV" add rule inet gsfault input ip daddr $DEAD_IP tcp dport 53 counter drop comment '"dead-nameserver-tcp"'
gs_nft "$GS_NS_SRV" add rule inet gsfault input ip daddr $GS_SRV_IP udp dport 53 counter comment '"dnsmasq-queries"'

gs_start "$GS_NS_SRV" "$OUT/dnsmasq.log" dnsmasq --keep-in-foreground --conf-file=/dev/null \
    --no-resolv --no-hosts --no-poll --bind-interfaces --listen-address="$GS_SRV_IP" \
    --user=root --pid-file= --log-queries --log-facility=- \
    --address="/$NAME/$GS_SRV_IP"
gs_start "$GS_NS_SRV" "$OUT/http.log" "$GS_PY" -u "$GS_HERE/netfaults.py" http-server "$GS_SRV_IP" $HTTP_PORT
gs_wait_tcp "$GS_NS_CLI" "$GS_SRV_IP" $HTTP_PORT || exit 1
for i in $(seq 1 100); do
    ip netns exec "$GS_NS_SRV" ss -Hlun "sport = :53" | grep -q "$GS_SRV_IP:53" && break
    kill -0 "$GS_LAST_PID" 2>/dev/null || true
    sleep 0.05
done

if [ "$MODE" = --control ]; then
    RESOLV="nameserver $GS_SRV_IP
nameserver $DEAD_IP
"
else
    RESOLV="nameserver $DEAD_IP
nameserver $GS_SRV_IP
"
fi
gs_etc_netns "$GS_NS_CLI" resolv.conf "$RESOLV"
# /etc/hosts of the host must not know the name
gs_etc_netns "$GS_NS_CLI" hosts "127.0.0.1 localhost
"
printf '%s' "$RESOLV" >"$OUT/resolv.conf"

gs_run "$GS_NS_CLI" "$OUT/client.log" "$GS_PY" -u "$GS_HERE/netfaults.py" dns-client "$NAME" $HTTP_PORT "$N" \
    --workers "$W" --pause-ms 2,8 || { echo "client failed ($?)" >&2; exit 1; }

ip netns exec "$GS_NS_SRV" nft list ruleset >"$OUT/nft.txt"
"$GS_PY" "$GS_HERE/netfaults.py" truth "$OUT/client.log" resolve --min-ms 900 >"$OUT/truth.tsv"
cat "$OUT/truth.tsv"
