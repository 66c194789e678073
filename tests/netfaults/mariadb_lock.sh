#!/bin/bash
# mariadb_lock.sh OUTDIR [--control]
#
# A real MariaDB (Debian's mariadb-server, 10.11): a private mariadbd of its own, made by
# mariadb-install-db in OUTDIR/data, its config OUTDIR/my.cnf and nothing else
# (--defaults-file), listening on a unix socket only (skip-networking), with
#   slow_query_log=1 long_query_time=0.5 slow_query_log_file=OUTDIR/slow.log
#   innodb_lock_wait_timeout=2
# The Python client (PyMySQL: python3-pymysql) runs for LOCK_SECONDS (18) s: a holder
# UPDATEs the hot rows (gs.hot, id 1-3) and keeps its transaction open,
#   (default)   a random 2.5-4 s (LOCK_HOLD_MS 2500,4000) before it commits, then 0.3-0.8 s
#               without; LOCK_WAITERS (3) other clients UPDATE one hot row at a time
#               (autocommit, 100-300 ms apart): those that meet an open hold wait, the first of
#               each hold until innodb_lock_wait_timeout ends the wait at 2 s with ERROR 1205,
#               the next until the holder commits. Each statement of 0.5 s and more is in
#               the slow log with its Query_time.
#   --control   the holder commits at once (a hold of 0 ms): nothing waits, and nothing
#               reaches long_query_time (LOCK_LONG_QUERY_TIME=0 logs every statement, for a
#               slow log with entries in both modes).
# No network namespace: no packet is touched, the fault is the server's lock wait.
# gapscan scans slow.log (OUTDIR/scan-target); truth.tsv is what the clients measured (every
# UPDATE's time, the 1205 timeouts) and what the slow log holds.
# Writes OUTDIR/slow.log, my.cnf, mariadbd.err, install-db.log, mariadb-version.txt,
# client.log, truth.tsv, scan-target (the server's OUTDIR/data is removed once it has stopped).
set -u
. "$(dirname "$0")/lib.sh"

OUT=${1:?usage: mariadb_lock.sh OUTDIR [--control]}
MODE=${2:-fault}
case "$MODE" in fault|--control) ;; *) echo "unknown mode $MODE" >&2; exit 2 ;; esac
SECONDS_RUN=${LOCK_SECONDS:-18}
HOLD_MS=${LOCK_HOLD_MS:-2500,4000}
WAITERS=${LOCK_WAITERS:-3}
LONG_QUERY_TIME=${LOCK_LONG_QUERY_TIME:-0.5}   # 0: every statement in the slow log
[ "$MODE" = --control ] && HOLD_MS=0,0
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
rm -f "$OUT"/slow.log "$OUT"/my.cnf "$OUT"/mariadbd.err "$OUT"/install-db.log \
    "$OUT"/mariadb-version.txt "$OUT"/client.log "$OUT"/truth.tsv "$OUT"/scan-target
rm -rf "$OUT/data"

MARIADBD=$(command -v mariadbd || command -v /usr/sbin/mariadbd) ||
    gs_skip "mariadbd is not installed (apt-get install mariadb-server)"
INSTALL_DB=$(command -v mariadb-install-db) ||
    gs_skip "mariadb-install-db is not installed (apt-get install mariadb-server)"
"$GS_PY" -c 'import pymysql' 2>/dev/null ||
    gs_skip "PyMySQL is not installed for $GS_PY (apt-get install python3-pymysql)"
gs_host_setup

# a unix socket's path has at most 107 bytes: a long OUTDIR gets its socket in a private
# temporary folder (removed by the cleanup)
SOCK="$OUT/mariadbd.sock"
if [ ${#SOCK} -gt 100 ]; then
    SOCK_DIR=$(mktemp -d /tmp/gs-mariadb.XXXXXX)
    GS_MADE_ETC+=("$SOCK_DIR")
    SOCK="$SOCK_DIR/mariadbd.sock"
fi
USER_LINE=
[ "$(id -u)" = 0 ] && USER_LINE="user=root"

cat >"$OUT/my.cnf" <<EOF
[mysqld]
$USER_LINE
datadir=$OUT/data
socket=$SOCK
pid-file=$OUT/data/mariadbd.pid
log-error=$OUT/mariadbd.err
skip-networking
skip-name-resolve
innodb_buffer_pool_size=32M
innodb_log_file_size=16M
slow_query_log=1
long_query_time=$LONG_QUERY_TIME
slow_query_log_file=$OUT/slow.log
innodb_lock_wait_timeout=2
EOF
"$MARIADBD" --version >"$OUT/mariadb-version.txt"
"$INSTALL_DB" --defaults-file="$OUT/my.cnf" --auth-root-authentication-method=normal \
    --skip-test-db >"$OUT/install-db.log" 2>&1 ||
    { echo "mariadb-install-db failed: $(tail -n 5 "$OUT/install-db.log")" >&2; exit 1; }

gs_start - "$OUT/mariadbd.err" "$MARIADBD" --defaults-file="$OUT/my.cnf"
SERVER=$GS_LAST_PID
# the client waits for the socket (up to 30 s), makes gs.hot, then runs its clients
gs_run - "$OUT/client.log" "$GS_PY" -u "$GS_HERE/netfaults.py" mysql-lock "$SOCK" "$SECONDS_RUN" \
    --hold-ms "$HOLD_MS" --waiters "$WAITERS" --pause-ms 100,300 ||
    { echo "client failed ($?): $(tail -n 3 "$OUT/client.log") $(tail -n 3 "$OUT/mariadbd.err")" >&2; exit 1; }
kill -0 "$SERVER" 2>/dev/null || { echo "mariadbd died: $(tail -n 5 "$OUT/mariadbd.err")" >&2; exit 1; }
# a clean shutdown, so that the slow log is complete and the data folder closed
gs_stop "$SERVER" 20
rm -rf "$OUT/data"   # 34 MB of tablespaces that no check reads
echo slow.log >"$OUT/scan-target"

# the waiters' UPDATEs, the timed-out ones (level=error err=1205) too; the stalls in classes
# of the 2 s timeout
"$GS_PY" "$GS_HERE/netfaults.py" truth "$OUT/client.log" update --any-level --min-ms 1900 \
    --class-ms 2000 >"$OUT/truth.tsv"
printf 'timeouts_1205\t%s\n' "$(grep -c ' op=update .* err=1205 ' "$OUT/client.log")" >>"$OUT/truth.tsv"
printf 'other_errors\t%s\n' "$(grep ' op=update ' "$OUT/client.log" | grep 'level=error' | grep -vc ' err=1205 ')" >>"$OUT/truth.tsv"
printf 'waits_ge_500ms\t%s\n' "$(awk '/ op=update / { for (i = 1; i <= NF; i++) if ($i ~ /^ms=/ && substr($i, 4) + 0 >= 500) n++ } END { print n + 0 }' "$OUT/client.log")" >>"$OUT/truth.tsv"
printf 'waits_ge_500ms_lt_1900ms\t%s\n' "$(awk '/ op=update / { for (i = 1; i <= NF; i++) if ($i ~ /^ms=/) { v = substr($i, 4) + 0; if (v >= 500 && v < 1900) n++ } } END { print n + 0 }' "$OUT/client.log")" >>"$OUT/truth.tsv"
printf 'holds\t%s\n' "$(grep -c ' op=hold ' "$OUT/client.log")" >>"$OUT/truth.tsv"
"$GS_PY" "$GS_HERE/netfaults.py" truth "$OUT/client.log" hold --min-ms 0 |
    sed -n 's/^\(slow_median_ms\|max_ms\)\t/hold_\1\t/p' | sed 's/^hold_slow_median_ms/hold_median_ms/' >>"$OUT/truth.tsv"
# the slow log's own view: every entry's Query_time
"$GS_PY" "$GS_HERE/netfaults.py" truth "$OUT/slow.log" slow --from slowlog --min-ms 1900 --class-ms 2000 |
    sed -n 's/^\(count\|slow_ge_1900ms\|slow_median_ms\|fast_median_ms\|max_ms\)\t/slowlog_\1\t/p' >>"$OUT/truth.tsv"
printf 'innodb_lock_wait_timeout_s\t%s\n' "$(sed -n 's/.* op=config innodb_lock_wait_timeout=\([0-9]*\) .*/\1/p' "$OUT/client.log")" >>"$OUT/truth.tsv"
printf 'mariadb\t%s\n' "$(cat "$OUT/mariadb-version.txt")" >>"$OUT/truth.tsv"
cat "$OUT/truth.tsv"
