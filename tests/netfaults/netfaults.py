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
    http-server IP PORT                 http.server that answers GET / with a small body
    syn-client  IP PORT N [--pause-ms A,B]   one fresh TCP connection per request
    rr-client   IP PORT N [--workers W] [--pause-ms A,B]
                                        request/response exchanges on one persistent
                                        connection per worker
    dns-client  NAME PORT N [--workers W] [--pause-ms A,B]
                                        getaddrinfo(NAME) per request, then an HTTP GET
    syn-sniff   IFACE PORT              AF_PACKET: logs every SYN to PORT (before netfilter)
    truth       LOG OP [--min-ms X] [--class-ms C] [--key K --scale F]
                                        measured durations of OP -> truth.tsv rows (stalls in
                                        classes of C ms; K the field, F its unit in ms)
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

    def do_GET(self):
        body = b"ok\n"
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, fmt, *a):
        log("info", srv="http", op="serve", peer=self.client_address[0],
            msg='"' + (fmt % a).replace('"', "'") + '"')


def http_server(ip, port):
    class S(http.server.ThreadingHTTPServer):
        allow_reuse_address = True
        daemon_threads = True
    with S((ip, int(port)), HttpHandler) as srv:
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

def read_ms(path, op, key="ms", scale=1.0):
    out = []
    with open(path) as f:
        for line in f:
            if f" op={op} " not in line or "level=info" not in line:
                continue
            for tok in line.split():
                if tok.startswith(key + "="):
                    out.append(float(tok[len(key) + 1:]) * scale)
    return out


def truth(path, op, args):
    min_ms = opt(args, "--min-ms", 900.0)
    class_ms = opt(args, "--class-ms", 1000.0)
    ms = read_ms(path, op, opt(args, "--key", "ms"), opt(args, "--scale", 1.0))
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
        http_server(a[0], a[1])
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
