#!/usr/bin/env python3
"""Clients, servers and a SYN sniffer for gapscan's network-fault tests.

Every program logs one line per operation, the way a small service does:
    2025-01-01T12:00:00.123456Z level=info req=12 op=connect ms=1003.412 peer=10.213.1.1:7000
Durations are measured with time.monotonic(); the stamp is the wall clock (UTC, microseconds)
when the line is written, i.e. when the operation ended.

Subcommands:
    tcp-server  IP PORT                 line server: reads "GET <n>\\n", answers "OK <n> ...\\n"
    rr-server   IP PORT                 the same on persistent connections (a line per exchange)
    upload-server IP PORT [--continue]  HTTP upload server (POST /upload); HTTP/1.0 by default,
                                        which never answers "100 Continue"; --continue: HTTP/1.1,
                                        which does (Python's handle_expect_100)
    http-server IP PORT [--delay-ms A,B]
                                        http.server that answers GET / with a small body
                                        (after a random A..B ms: a backend's own work)
    syn-client  IP PORT N [--pause-ms A,B]   one fresh TCP connection per request
    rr-client   IP PORT N [--workers W] [--pause-ms A,B]
                                        request/response exchanges on one persistent
                                        connection per worker
    dns-client  NAME PORT N [--workers W] [--pause-ms A,B]
                                        getaddrinfo(NAME) per request, then an HTTP GET
    http-client HOST PORT N [--workers W] [--pause-ms A,B]
                                        HTTP GET / on a fresh connection per request, with an
                                        X-Request-Id header (logged as rid=)
    mysql-lock  SOCKET SECONDS [--hold-ms A,B] [--waiters W] [--hot H] [--pause-ms A,B]
                                        MariaDB/MySQL row locks (PyMySQL, unix socket, root
                                        without password; waits for the server, makes gs.hot):
                                        a holder UPDATEs the H (3) hot rows and keeps its
                                        transaction open for A..B ms (0,0: commits at once),
                                        then pauses 300-800 ms; W waiters UPDATE one hot row
                                        each (autocommit) and log op=update with the time it
                                        took (err=1205 on a lock wait timeout)
    syn-sniff   IFACE PORT              AF_PACKET: logs every SYN to PORT (before netfilter)
    truth       LOG OP [--min-ms X] [--class-ms C] [--key K --scale F]
                [--any-level] [--percentiles] [--from haproxy|nginx|slowlog]
                                        measured durations of OP -> truth.tsv rows (stalls in
                                        classes of C ms; K the field, F its unit in ms);
                                        --any-level: error lines count too; --percentiles:
                                        p10/p50/p90 rows and how many were > 0; --from: K is a
                                        field of a server's own log: haproxy's httplog timers
                                        (TR Tw Tc Tr Ta, ms), an nginx log's key="seconds"
                                        ($upstream_connect_time …), or the slow log's Query_time
"""
import datetime
import http.client
import http.server
import os
import random
import socket
import socketserver
import statistics
import struct
import sys
import threading
import time

_log_lock = threading.Lock()


def stamp():
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def log(level, **fields):
    parts = " ".join(f"{k}={v}" for k, v in fields.items())
    with _log_lock:
        sys.stdout.write(f"{stamp()} level={level} {parts}\n")
        sys.stdout.flush()


def parse_pause(args):
    lo, hi = 2.0, 8.0
    if "--pause-ms" in args:
        v = args[args.index("--pause-ms") + 1]
        lo, hi = (float(x) for x in v.split(","))
    return lo / 1000.0, hi / 1000.0


def opt(args, name, default):
    if name in args:
        return type(default)(args[args.index(name) + 1])
    return default


# ---------------------------------------------------------------- servers

class LineHandler(socketserver.StreamRequestHandler):
    def handle(self):
        t0 = time.monotonic()
        line = self.rfile.readline(256)
        if not line:
            return  # a readiness probe: connected and closed
        req = line.decode(errors="replace").split()[-1]
        self.wfile.write(f"OK {req} {'x' * 64}\n".encode())
        log("info", srv="tcp", req=req, op="serve",
            ms=f"{(time.monotonic() - t0) * 1000:.3f}",
            peer=f"{self.client_address[0]}:{self.client_address[1]}")


class PersistentLineHandler(socketserver.StreamRequestHandler):
    """One connection, many exchanges: "GET <n>" in, "OK <n> ..." out, until the client closes."""

    def handle(self):
        peer = f"{self.client_address[0]}:{self.client_address[1]}"
        log("info", srv="rr", op="accept", peer=peer)
        served = 0
        while True:
            line = self.rfile.readline(256)
            if not line:
                break
            req = line.decode(errors="replace").split()[-1]
            self.wfile.write(f"OK {req} {'x' * 64}\n".encode())
            self.wfile.flush()
            served += 1
        log("info", srv="rr", op="close", peer=peer, served=served)


class TServer(socketserver.ThreadingTCPServer):
    allow_reuse_address = True
    daemon_threads = True
    request_queue_size = 128


def tcp_server(ip, port, handler=LineHandler, name="tcp"):
    with TServer((ip, int(port)), handler) as srv:
        log("info", srv=name, op="listen", addr=f"{ip}:{port}")
        srv.serve_forever()


class HttpHandler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.0"
    delay_ms = None  # (lo, hi): the backend's own work per request

    def do_GET(self):
        if self.delay_ms:
            time.sleep(random.uniform(*self.delay_ms) / 1000.0)
        body = b"ok\n"
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, fmt, *a):
        extra = {}
        rid = self.headers.get("X-Request-Id") if getattr(self, "headers", None) else None
        if rid:
            extra["rid"] = rid
        log("info", srv="http", op="serve", peer=self.client_address[0], **extra,
            msg='"' + (fmt % a).replace('"', "'") + '"')


def http_server(ip, port, args=()):
    class H(HttpHandler):
        pass
    if "--delay-ms" in args:
        H.delay_ms = tuple(float(x) for x in args[args.index("--delay-ms") + 1].split(","))

    class S(http.server.ThreadingHTTPServer):
        allow_reuse_address = True
        daemon_threads = True
        request_queue_size = 128
    with S((ip, int(port)), H) as srv:
        log("info", srv="http", op="listen", addr=f"{ip}:{port}")
        srv.serve_forever()


class UploadHandler(http.server.BaseHTTPRequestHandler):
    """POST /upload: reads the body, answers 201. Python sends "100 Continue" itself only when
    protocol_version is HTTP/1.1 (BaseHTTPRequestHandler.handle_expect_100)."""

    def do_POST(self):
        t0 = time.monotonic()
        n = int(self.headers.get("Content-Length", "0"))
        got = 0
        while got < n:
            chunk = self.rfile.read(min(65536, n - got))
            if not chunk:
                break
            got += len(chunk)
        body = f"stored {got}\n".encode()
        self.send_response(201)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(body)
        log("info", srv="upload", op="store", peer=self.client_address[0], bytes=got,
            expect=self.headers.get("Expect", "-"), proto=self.protocol_version,
            ms=f"{(time.monotonic() - t0) * 1000:.3f}")

    def log_message(self, fmt, *a):
        pass


def upload_server(ip, port, args):
    class H(UploadHandler):
        protocol_version = "HTTP/1.1" if "--continue" in args else "HTTP/1.0"

    class S(http.server.ThreadingHTTPServer):
        allow_reuse_address = True
        daemon_threads = True
    with S((ip, int(port)), H) as srv:
        log("info", srv="upload", op="listen", addr=f"{ip}:{port}", proto=H.protocol_version)
        srv.serve_forever()


# ---------------------------------------------------------------- clients

def syn_client(ip, port, n, args):
    port, n = int(port), int(n)
    plo, phi = parse_pause(args)
    for req in range(1, n + 1):
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        t0 = time.monotonic()
        try:
            s.connect((ip, port))
        except OSError as e:
            log("error", req=req, op="connect", ms=f"{(time.monotonic() - t0) * 1000:.3f}",
                peer=f"{ip}:{port}", err=f'"{e}"')
            s.close()
            continue
        t1 = time.monotonic()
        log("info", req=req, op="connect", ms=f"{(t1 - t0) * 1000:.3f}", peer=f"{ip}:{port}")
        try:
            s.sendall(f"GET {req}\n".encode())
            f = s.makefile("rb")
            reply = f.readline()
            t2 = time.monotonic()
            log("info", req=req, op="get", ms=f"{(t2 - t1) * 1000:.3f}", bytes=len(reply))
        except OSError as e:
            log("error", req=req, op="get", ms=f"{(time.monotonic() - t1) * 1000:.3f}",
                err=f'"{e}"')
        finally:
            s.close()
        time.sleep(random.uniform(plo, phi))


def request_numbers(n):
    """A thread-safe source of request numbers 1..n (None when they are used up)."""
    counter = iter(range(1, n + 1))
    lock = threading.Lock()

    def next_req():
        with lock:
            return next(counter, None)
    return next_req


def run_workers(work, workers):
    ts = [threading.Thread(target=work, name=f"w{i}") for i in range(workers)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()


def rr_client(ip, port, n, args):
    """Short request/response exchanges, the way a client of a cache or an RPC service makes
    them: each worker keeps one connection and sends one small request at a time."""
    port, n = int(port), int(n)
    workers = opt(args, "--workers", 1)
    plo, phi = parse_pause(args)
    next_req = request_numbers(n)

    def work():
        t0 = time.monotonic()
        s = socket.create_connection((ip, port), timeout=30)
        s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        f = s.makefile("rb")
        log("info", op="connect", ms=f"{(time.monotonic() - t0) * 1000:.3f}", peer=f"{ip}:{port}")
        while True:
            req = next_req()
            if req is None:
                break
            t1 = time.monotonic()
            try:
                s.sendall(f"GET {req}\n".encode())
                reply = f.readline()
            except OSError as e:
                log("error", req=req, op="get", ms=f"{(time.monotonic() - t1) * 1000:.3f}",
                    err=f'"{e}"')
                break
            log("info", req=req, op="get", ms=f"{(time.monotonic() - t1) * 1000:.3f}",
                bytes=len(reply))
            time.sleep(random.uniform(plo, phi))
        s.close()

    run_workers(work, workers)


def dns_client(name, port, n, args):
    port, n = int(port), int(n)
    workers = opt(args, "--workers", 1)
    plo, phi = parse_pause(args)
    next_req = request_numbers(n)

    def work():
        while True:
            req = next_req()
            if req is None:
                return
            t0 = time.monotonic()
            try:
                ai = socket.getaddrinfo(name, port, type=socket.SOCK_STREAM)
            except socket.gaierror as e:
                log("error", req=req, op="resolve", ms=f"{(time.monotonic() - t0) * 1000:.3f}",
                    name=name, err=f'"{e}"')
                time.sleep(random.uniform(plo, phi))
                continue
            t1 = time.monotonic()
            addr = ai[0][4][0]
            log("info", req=req, op="resolve", ms=f"{(t1 - t0) * 1000:.3f}", name=name, addr=addr)
            try:
                c = http.client.HTTPConnection(addr, port, timeout=10)
                c.connect()
                t2 = time.monotonic()
                log("info", req=req, op="connect", ms=f"{(t2 - t1) * 1000:.3f}",
                    peer=f"{addr}:{port}")
                c.request("GET", "/", headers={"Host": name})
                r = c.getresponse()
                body = r.read()
                t3 = time.monotonic()
                log("info", req=req, op="get", ms=f"{(t3 - t2) * 1000:.3f}", status=r.status,
                    bytes=len(body))
                c.close()
            except OSError as e:
                log("error", req=req, op="get", err=f'"{e}"')
            time.sleep(random.uniform(plo, phi))

    run_workers(work, workers)


def http_client(host, port, n, args):
    """GET / through a proxy, one fresh connection per request (Connection: close), each with
    its own X-Request-Id; logs op=get with the time from connect() to the last body byte."""
    port, n = int(port), int(n)
    workers = opt(args, "--workers", 1)
    plo, phi = parse_pause(args)
    next_req = request_numbers(n)
    tag = f"{os.getpid():x}"

    def work():
        while True:
            req = next_req()
            if req is None:
                return
            rid = f"gs-{tag}-{req:05d}"
            t0 = time.monotonic()
            try:
                c = http.client.HTTPConnection(host, port, timeout=30)
                c.request("GET", "/", headers={"X-Request-Id": rid, "Connection": "close"})
                r = c.getresponse()
                body = r.read()
                c.close()
                log("info" if r.status < 400 else "error", req=req, op="get",
                    ms=f"{(time.monotonic() - t0) * 1000:.3f}", status=r.status,
                    bytes=len(body), rid=rid)
            except OSError as e:
                log("error", req=req, op="get", ms=f"{(time.monotonic() - t0) * 1000:.3f}",
                    rid=rid, err=f'"{e}"')
            time.sleep(random.uniform(plo, phi))

    run_workers(work, workers)


def mysql_lock(sock, seconds, args):
    """Row-lock waits on a real MariaDB/MySQL: table gs.hot (id, n) with rows 1..HOT.
    The holder runs, until SECONDS have passed: BEGIN; UPDATE hot SET n=n+1 WHERE id<=HOT;
    (its transaction stays open A..B ms, the application busy elsewhere) COMMIT; a pause of
    300-800 ms. Each waiter runs UPDATE hot SET n=n+1 WHERE id=<one hot row> (autocommit),
    then a pause. A waiter's UPDATE that meets innodb_lock_wait_timeout fails with 1205."""
    import pymysql
    seconds = float(seconds)
    hold_lo, hold_hi = (float(x) for x in (args[args.index("--hold-ms") + 1]
                                            if "--hold-ms" in args else "2500,4000").split(","))
    waiters = opt(args, "--waiters", 3)
    hot = opt(args, "--hot", 3)
    plo, phi = parse_pause(args) if "--pause-ms" in args else (0.1, 0.3)

    def connect(autocommit, db="gs"):
        return pymysql.connect(unix_socket=sock, user="root", password="", database=db,
                               autocommit=autocommit, connect_timeout=10)
    # the server was just started: wait for its socket (up to --ready-s, 30 s)
    t_ready = time.monotonic() + opt(args, "--ready-s", 30.0)
    while True:
        try:
            setup = connect(True, None)
            break
        except pymysql.err.MySQLError as e:
            if time.monotonic() > t_ready:
                log("error", op="ready", err=f'"{e}"')
                raise SystemExit(1)
            time.sleep(0.1)
    with setup.cursor() as c:
        c.execute("CREATE DATABASE IF NOT EXISTS gs")
        c.execute("CREATE TABLE IF NOT EXISTS gs.hot (id INT PRIMARY KEY, n INT NOT NULL)"
                  " ENGINE=InnoDB")
        c.execute("INSERT IGNORE INTO gs.hot VALUES " + ",".join(f"({i},0)" for i in range(1, 11)))
        c.execute("SELECT @@innodb_lock_wait_timeout, @@long_query_time, @@version")
        lwt, lqt, ver = c.fetchone()
    setup.close()
    log("info", op="config", innodb_lock_wait_timeout=lwt, long_query_time=lqt,
        server=f'"{ver}"')
    t_end = time.monotonic() + seconds
    next_req = request_numbers(10 ** 6)

    def holder():
        conn = connect(False)
        k = 0
        while time.monotonic() < t_end:
            k += 1
            hold = random.uniform(hold_lo, hold_hi) / 1000.0
            t0 = time.monotonic()
            with conn.cursor() as c:
                c.execute("UPDATE hot SET n = n + 1 WHERE id <= %s", (hot,))
                rows = c.rowcount
            t1 = time.monotonic()
            time.sleep(hold)
            conn.commit()
            t2 = time.monotonic()
            log("info", hold=k, op="hold", ms=f"{(t2 - t0) * 1000:.3f}",
                update_ms=f"{(t1 - t0) * 1000:.3f}", rows=rows)
            time.sleep(random.uniform(0.3, 0.8))
        conn.close()

    def waiter():
        conn = connect(True)
        while time.monotonic() < t_end:
            req = next_req()
            row = random.randint(1, hot)
            t0 = time.monotonic()
            try:
                with conn.cursor() as c:
                    c.execute("UPDATE hot SET n = n + 1 WHERE id = %s", (row,))
                log("info", req=req, op="update", ms=f"{(time.monotonic() - t0) * 1000:.3f}",
                    row=row)
            except pymysql.err.MySQLError as e:
                code = e.args[0] if e.args else "?"
                log("error", req=req, op="update", ms=f"{(time.monotonic() - t0) * 1000:.3f}",
                    row=row, err=code, msg='"' + str(e.args[-1]).replace('"', "'") + '"')
            time.sleep(random.uniform(plo, phi))
        conn.close()

    ts = [threading.Thread(target=holder, name="holder")]
    ts += [threading.Thread(target=waiter, name=f"w{i}") for i in range(waiters)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()


# ---------------------------------------------------------------- sniffer

def syn_sniff(iface, port):
    """Log every TCP SYN (without ACK) to PORT arriving on IFACE. AF_PACKET sees the frame
    before netfilter, so SYNs that nft drops are logged too."""
    port = int(port)
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(0x0800))
    s.bind((iface, 0))
    log("info", op="sniff", iface=iface, port=port)
    while True:
        frame, meta = s.recvfrom(256)
        if meta[2] == socket.PACKET_OUTGOING:
            continue
        ip = frame[14:]
        if len(ip) < 20 or ip[9] != 6:
            continue
        ihl = (ip[0] & 0x0F) * 4
        tcp = ip[ihl:]
        if len(tcp) < 14:
            continue
        sport, dport, seq = struct.unpack("!HHI", tcp[:8])
        flags = tcp[13]
        if dport == port and flags & 0x02 and not flags & 0x10:
            log("info", op="syn", src=f"{socket.inet_ntoa(ip[12:16])}:{sport}", isn=seq,
                mono=f"{time.monotonic():.6f}")


# ---------------------------------------------------------------- truth

def read_ms(path, op, key="ms", scale=1.0, any_level=False):
    out = []
    with open(path) as f:
        for line in f:
            if f" op={op} " not in line or ("level=info" not in line and not any_level):
                continue
            for tok in line.split():
                if tok.startswith(key + "="):
                    out.append(float(tok[len(key) + 1:]) * scale)
    return out


def read_server_ms(path, source, key):
    """Durations (ms) from a server's own log: haproxy's httplog timers (key TR, Tw, Tc, Tr or
    Ta; -1, a phase never reached, is left out), an nginx log's key="seconds" (the first
    upstream's), or the slow log's Query_time (seconds)."""
    import re
    out = []
    if source == "haproxy":
        timers = re.compile(r"\] \S+ \S+ (-?\d+)/(-?\d+)/(-?\d+)/(-?\d+)/\+?(-?\d+) \d{3} ")
        idx = ["TR", "Tw", "Tc", "Tr", "Ta"].index(key)
        for line in open(path, errors="replace"):
            m = timers.search(line)
            if m and int(m.group(idx + 1)) >= 0:
                out.append(float(m.group(idx + 1)))
    elif source == "nginx":
        field = re.compile(r"(?:^|\s)" + re.escape(key) + r'="?([0-9.]+)')
        for line in open(path, errors="replace"):
            m = field.search(line)
            if m:
                out.append(float(m.group(1)) * 1000.0)
    elif source == "slowlog":
        field = re.compile(r"# Query_time: ([0-9.]+)")
        for line in open(path, errors="replace"):
            m = field.match(line)
            if m:
                out.append(float(m.group(1)) * 1000.0)
    else:
        raise SystemExit(f"unknown --from {source}")
    return out


def truth(path, op, args):
    min_ms = opt(args, "--min-ms", 900.0)
    class_ms = opt(args, "--class-ms", 1000.0)
    if "--from" in args:
        ms = read_server_ms(path, opt(args, "--from", ""), opt(args, "--key", "ms"))
    else:
        ms = read_ms(path, op, opt(args, "--key", "ms"), opt(args, "--scale", 1.0),
                     "--any-level" in args)
    slow = sorted(v for v in ms if v >= min_ms)
    fast = sorted(v for v in ms if v < min_ms)
    rows = [("op", op), ("count", len(ms)), (f"slow_ge_{min_ms:g}ms", len(slow)),
            ("slow_median_ms", f"{statistics.median(slow):.3f}" if slow else "nan"),
            ("fast_median_ms", f"{statistics.median(fast):.3f}" if fast else "nan"),
            ("max_ms", f"{max(ms):.3f}" if ms else "nan")]
    # classes of whole multiples of class_ms (1, 2, 3 … s stalls; 200, 400 … ms)
    classes = {}
    for v in slow:
        classes.setdefault(round(v / class_ms), []).append(v)
    for k in sorted(classes):
        rows.append((f"class_{k * class_ms:g}ms",
                     f"{len(classes[k])} median={statistics.median(classes[k]):.3f}"))
    if "--percentiles" in args and ms:
        s = sorted(ms)
        for p in (10, 50, 90):
            rows.append((f"p{p}_ms", f"{s[min(len(s) - 1, int(p / 100 * len(s)))]:.3f}"))
        rows.append(("nonzero", sum(1 for v in ms if v > 0)))
    for k, v in rows:
        print(f"{k}\t{v}")


def syn_offsets(path):
    """The connection with the most SYNs in a sniff log: its SYN times after the first.
    A connection is its source address and port and its initial sequence number: the
    retransmissions of a SYN repeat it, a later connection that reuses the port does not."""
    by_src = {}
    with open(path) as f:
        for line in f:
            if " op=syn " not in line:
                continue
            kv = dict(t.split("=", 1) for t in line.split()[1:] if "=" in t)
            by_src.setdefault((kv["src"], kv.get("isn")), []).append(float(kv["mono"]))
    if not by_src:
        print("syn_retries\tnone")
        return
    src, ts = max(by_src.items(), key=lambda kv: len(kv[1]))
    offs = [t - ts[0] for t in ts]
    print(f"syn_connection\t{src[0]} isn={src[1]}")
    print(f"syn_count\t{len(ts)}")
    print("syn_offsets_s\t" + ",".join(f"{o:.3f}" for o in offs))


def main(argv):
    if len(argv) < 2:
        print(__doc__)
        return 2
    cmd, a = argv[1], argv[2:]
    if cmd == "tcp-server":
        tcp_server(a[0], a[1])
    elif cmd == "rr-server":
        tcp_server(a[0], a[1], PersistentLineHandler, "rr")
    elif cmd == "upload-server":
        upload_server(a[0], a[1], a[2:])
    elif cmd == "rr-client":
        rr_client(a[0], a[1], a[2], a[3:])
    elif cmd == "http-server":
        http_server(a[0], a[1], a[2:])
    elif cmd == "http-client":
        http_client(a[0], a[1], a[2], a[3:])
    elif cmd == "mysql-lock":
        mysql_lock(a[0], a[1], a[2:])
    elif cmd == "syn-client":
        syn_client(a[0], a[1], a[2], a[3:])
    elif cmd == "dns-client":
        dns_client(a[0], a[1], a[2], a[3:])
    elif cmd == "syn-sniff":
        syn_sniff(a[0], a[1])
    elif cmd == "syn-offsets":
        syn_offsets(a[0])
    elif cmd == "truth":
        truth(a[0], a[1], a[2:])
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
