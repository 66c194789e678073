#!/bin/bash
# expect_continue.sh OUTDIR [--control]
#
# A Python upload server in the server namespace; in the client namespace a shell loop runs
# curl to POST files, the way a backup or sync script does, and logs one line per upload
# with curl's own -w timers (seconds).
# Sizes alternate between small files (EXPECT_SMALL, 16 KiB) and files over curl's
# EXPECT_100_THRESHOLD (EXPECT_LARGE, 1.5 MiB), for which curl sends `Expect: 100-continue`
# and holds the body back until the server answers 100 or its expect-100 timeout (1 s) ends.
#   (default)   the server speaks HTTP/1.0 and never answers 100 Continue: each large upload
#               waits curl's 1 s.
#   --control   the server speaks HTTP/1.1 and answers 100 Continue at once.
# No packet is dropped: the fault is the server's. nft only counts the connections.
# Writes OUTDIR/client.log, server.log, truth.tsv, nft.txt, curl-version.txt.
set -u
. "$(dirname "$0")/lib.sh"

OUT=${1:?usage: expect_continue.sh OUTDIR [--control]}
MODE=${2:-fault}
case "$MODE" in fault|--control) ;; *) echo "unknown mode $MODE" >&2; exit 2 ;; esac
N=${EXPECT_UPLOADS:-24}
SMALL=${EXPECT_SMALL:-16384}
LARGE=${EXPECT_LARGE:-1572864}
PORT=8090
mkdir -p "$OUT"
rm -f "$OUT"/client.log "$OUT"/server.log "$OUT"/truth.tsv "$OUT"/nft.txt "$OUT"/curl-version.txt

command -v curl >/dev/null || gs_skip "curl is not installed (apt-get install curl)"
gs_setup
SRV_ARGS=()
[ "$MODE" = --control ] && SRV_ARGS=(--continue)
gs_start "$GS_NS_SRV" "$OUT/server.log" "$GS_PY" -u "$GS_HERE/netfaults.py" upload-server "$GS_SRV_IP" $PORT "${SRV_ARGS[@]}"
gs_wait_tcp "$GS_NS_CLI" "$GS_SRV_IP" $PORT || exit 1
gs_nft "$GS_NS_SRV" add table inet gsfault
gs_nft "$GS_NS_SRV" add chain inet gsfault input '{ type filter hook input priority -10; policy accept; }'
gs_nft "$GS_NS_SRV" add rule inet gsfault input tcp dport $PORT 'tcp flags & (syn | ack) == syn' counter comment '"uploads"'

curl --version | head -n 1 >"$OUT/curl-version.txt"
WORK=$(mktemp -d)
GS_MADE_ETC+=("$WORK")   # removed by the cleanup
head -c "$SMALL" /dev/urandom >"$WORK/small.bin"
head -c "$LARGE" /dev/urandom >"$WORK/large.bin"

# The client: what an operator's script looks like. Its stamp is taken when curl returns.
cat >"$WORK/client.sh" <<'CLIENT'
#!/bin/bash
url=$1 n=$2 dir=$3
for i in $(seq 1 "$n"); do
    if [ $((i % 2)) = 0 ]; then f=$dir/large.bin; else f=$dir/small.bin; fi
    w=$(curl -sS -o /dev/null --data-binary "@$f" -H 'Content-Type: application/octet-stream' \
        -w 'status=%{http_code} size_upload=%{size_upload} time_namelookup=%{time_namelookup} time_connect=%{time_connect} time_starttransfer=%{time_starttransfer} time_total=%{time_total}' \
        "$url/upload/$i" 2>&1)
    rc=$?
    if [ $rc = 0 ]; then lvl=info; else lvl=error; fi
    echo "$(date -u +%Y-%m-%dT%H:%M:%S.%6NZ) level=$lvl req=$i op=upload file=$(basename "$f") $w rc=$rc"
    sleep 0.0$((RANDOM % 5 + 2))
done
CLIENT
chmod +x "$WORK/client.sh"
gs_run "$GS_NS_CLI" "$OUT/client.log" "$WORK/client.sh" "http://$GS_SRV_IP:$PORT" "$N" "$WORK" ||
    { echo "client failed ($?)" >&2; exit 1; }
ip netns exec "$GS_NS_SRV" nft list ruleset >"$OUT/nft.txt"

"$GS_PY" "$GS_HERE/netfaults.py" truth "$OUT/client.log" upload --min-ms 900 --class-ms 1000 \
    --key time_total --scale 1000 >"$OUT/truth.tsv"
printf 'expect_sent\t%s\n' "$(grep -c 'expect=100-continue' "$OUT/server.log")" >>"$OUT/truth.tsv"
printf 'curl\t%s\n' "$(cat "$OUT/curl-version.txt")" >>"$OUT/truth.tsv"
cat "$OUT/truth.tsv"
