#!/bin/bash
# nginx_upstream.sh OUTDIR [--control]
#
# A real nginx (Debian's nginx, 1.22) in the client namespace as a reverse proxy in front of
# the Python http.server in the server namespace: `proxy_pass` with no upstream keepalive, so
# every request opens a new connection to the backend, `proxy_connect_timeout 5s`. The Python
# client (NGX_WORKERS threads, 3) sends NGX_REQUESTS (150) GETs to nginx on 127.0.0.1, a fresh
# connection each. nginx's access log is the combined format with the request's timers and
# its request id appended:
#   … "GET / HTTP/1.1" 200 3 "-" "-" rt=$request_time uct="$upstream_connect_time"
#   uht="$upstream_header_time" urt="$upstream_response_time" $request_id
#   (default)   nft in the server namespace drops SYN_DROP_PCT % (20) of the SYNs to the
#               backend port at random (numgen random): the kernel sends the SYN again after
#               1 s, so about a fifth of the requests log uct ≈ 1.0 s (2.0 s when both SYNs are
#               dropped).
#   --control   the same run without the rule.
# nginx runs in the foreground (`daemon off;`, its master process the pid the harness
# stops) with its pid file, error log and temp paths in OUTDIR/nginx/.
# gapscan scans nginx-access.log (OUTDIR/scan-target); truth.tsv is nginx's own uct.
# Writes OUTDIR/nginx-access.log, nginx-error.log, nginx.conf, nginx-version.txt, client.log,
# server.log, truth.tsv, nft.txt, scan-target.
set -u
. "$(dirname "$0")/lib.sh"

OUT=${1:?usage: nginx_upstream.sh OUTDIR [--control]}
MODE=${2:-fault}
case "$MODE" in fault|--control) ;; *) echo "unknown mode $MODE" >&2; exit 2 ;; esac
N=${NGX_REQUESTS:-150}
W=${NGX_WORKERS:-3}
PCT=${SYN_DROP_PCT:-20}
PORT=8080       # the backend, server namespace
FE_PORT=8200    # nginx, 127.0.0.1 in the client namespace
mkdir -p "$OUT"
rm -f "$OUT"/nginx-access.log "$OUT"/nginx-error.log "$OUT"/nginx.conf "$OUT"/nginx-version.txt \
    "$OUT"/client.log "$OUT"/server.log "$OUT"/truth.tsv "$OUT"/nft.txt "$OUT"/scan-target
rm -rf "$OUT/nginx"

NGINX=$(command -v nginx || command -v /usr/sbin/nginx) ||
    gs_skip "nginx is not installed (apt-get install nginx)"
gs_setup

P="$OUT/nginx"
mkdir -p "$P/tmp"
cat >"$OUT/nginx.conf" <<EOF
daemon off;
master_process on;
worker_processes 1;
pid $P/nginx.pid;
error_log $OUT/nginx-error.log notice;

events {
    worker_connections 256;
}

http {
    log_format timed '\$remote_addr - \$remote_user [\$time_local] "\$request" '
                     '\$status \$body_bytes_sent "\$http_referer" "\$http_user_agent" '
                     'rt=\$request_time uct="\$upstream_connect_time" '
                     'uht="\$upstream_header_time" urt="\$upstream_response_time" \$request_id';
    access_log $OUT/nginx-access.log timed;

    client_body_temp_path $P/tmp/body;
    proxy_temp_path $P/tmp/proxy;
    fastcgi_temp_path $P/tmp/fastcgi;
    uwsgi_temp_path $P/tmp/uwsgi;
    scgi_temp_path $P/tmp/scgi;

    server {
        listen 127.0.0.1:$FE_PORT;
        location / {
            proxy_pass http://$GS_SRV_IP:$PORT;
            proxy_connect_timeout 5s;
            proxy_read_timeout 30s;
            proxy_set_header X-Request-Id \$request_id;
        }
    }
}
EOF
"$NGINX" -v 2>&1 | head -n 1 >"$OUT/nginx-version.txt"
# -e: the error log before the config is read (else the compiled-in /var/log/nginx/error.log)
"$NGINX" -t -q -p "$P" -e "$OUT/nginx-error.log" -c "$OUT/nginx.conf" >>"$OUT/nginx-error.log" 2>&1 ||
    { echo "nginx rejected its config: $(cat "$OUT/nginx-error.log")" >&2; exit 1; }

gs_start "$GS_NS_SRV" "$OUT/server.log" "$GS_PY" -u "$GS_HERE/netfaults.py" http-server "$GS_SRV_IP" $PORT
gs_wait_tcp "$GS_NS_CLI" "$GS_SRV_IP" $PORT || exit 1
gs_start "$GS_NS_CLI" "$OUT/nginx-error.log" "$NGINX" -p "$P" -e "$OUT/nginx-error.log" -c "$OUT/nginx.conf"
gs_wait_tcp "$GS_NS_CLI" 127.0.0.1 $FE_PORT || exit 1

gs_nft "$GS_NS_SRV" add table inet gsfault
gs_nft "$GS_NS_SRV" add chain inet gsfault input '{ type filter hook input priority -10; policy accept; }'
gs_nft "$GS_NS_SRV" add rule inet gsfault input tcp dport $PORT 'tcp flags & (syn | ack) == syn' counter comment '"syns"'
if [ "$MODE" = fault ]; then
    gs_nft "$GS_NS_SRV" add rule inet gsfault input tcp dport $PORT 'tcp flags & (syn | ack) == syn' \
        numgen random mod 100 '<' "$PCT" counter drop comment '"random-syn-drop"'
fi

gs_run "$GS_NS_CLI" "$OUT/client.log" "$GS_PY" -u "$GS_HERE/netfaults.py" http-client 127.0.0.1 $FE_PORT "$N" \
    --workers "$W" --pause-ms 2,8 || { echo "client failed ($?)" >&2; exit 1; }
gs_sleep 0.2   # nginx writes a request's line when it ends: let the last ones land
ip netns exec "$GS_NS_SRV" nft list ruleset >"$OUT/nft.txt"
echo nginx-access.log >"$OUT/scan-target"

"$GS_PY" "$GS_HERE/netfaults.py" truth "$OUT/nginx-access.log" connect --from nginx --key uct \
    --min-ms 900 >"$OUT/truth.tsv"
printf 'log_lines\t%s\n' "$(grep -c '"GET / HTTP/1.1"' "$OUT/nginx-access.log")" >>"$OUT/truth.tsv"
printf 'client_gets\t%s\n' "$(grep -c ' op=get ' "$OUT/client.log")" >>"$OUT/truth.tsv"
printf 'client_slow_ge_900ms\t%s\n' "$(awk '/ op=get / { for (i = 1; i <= NF; i++) if ($i ~ /^ms=/ && substr($i, 4) + 0 >= 900) n++ } END { print n + 0 }' "$OUT/client.log")" >>"$OUT/truth.tsv"
printf 'client_errors\t%s\n' "$(grep -c 'level=error' "$OUT/client.log")" >>"$OUT/truth.tsv"
printf 'nft_syns\t%s\n' "$(awk '/comment "syns"/ { for (i = 1; i < NF; i++) if ($i == "packets") print $(i + 1) }' "$OUT/nft.txt")" >>"$OUT/truth.tsv"
printf 'nft_dropped\t%s\n' "$(awk '/counter packets [0-9]+ .*drop/ { for (i = 1; i < NF; i++) if ($i == "packets") n += $(i + 1) } END { print n + 0 }' "$OUT/nft.txt")" >>"$OUT/truth.tsv"
printf 'nginx\t%s\n' "$(cat "$OUT/nginx-version.txt")" >>"$OUT/truth.tsv"
cat "$OUT/truth.tsv"
