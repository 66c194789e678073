#!/usr/bin/env python3
"""Write tbench-client.log: the client side of a ping-pong transport benchmark over TCP on
loopback, one line per measured iteration (size, iteration, latency), for request payloads of
64 B to 64 KiB (powers of two).

The transport frames each request as a 16-byte header plus the payload. Payloads below
4096 bytes are copied into the header buffer and leave in one write(); from 4096 bytes on, the
payload is written separately after the header (write-write-read). The socket keeps Nagle's
algorithm on (TCP_NODELAY is not set). So from 4096 bytes on, the header segment leaves at once,
and the payload, sub-MSS on loopback (MSS 65483), is held by Nagle (Minshall's rule: an earlier
small segment, the header, is unacknowledged). The server has received only the 16-byte header,
less than one MSS, with nothing to send back yet, so it arms its delayed-ACK timer: HZ=250,
TCP_DELACK_MIN = 10 ticks of 4 ms, plus one tick of timer-wheel rounding = 44 ms, minus the
phase of the arming moment inside its tick. In the benchmark's closed loop every request is sent
right after the previous response, which itself followed a timer-driven ACK on a tick
boundary, so the phase is nearly zero and the latency locks at 44.0 ms; now and then the timer
fires one tick later (48 ms).

64 KiB (65536 B) is larger than one loopback MSS: its first 65483 bytes leave as a full-sized
segment, and the server, having then received more than one MSS, ACKs at once, which releases
the 53-byte tail: no stall. Below 4096 bytes there is one write and no stall either.

Each size runs on a fresh connection: connect, 5 warm-up iterations (not logged; the first
ones are quick-ACKed), then the measured iterations.

Standard library only; fixed seed, so the output is the same on every run.
"""

import datetime as dt
import math
import os
import random
import sys

SEED = 20261129
# The output folder: the first argument, else this folder.
OUT_DIR = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(OUT_DIR, "tbench-client.log")

START = dt.datetime(2026, 11, 29, 14, 2, 10, 104311, tzinfo=dt.timezone.utc).timestamp()
SIZES = [64 << i for i in range(11)]          # 64 B ... 64 KiB
ITERATIONS = 200
WARMUP = 5
HEADER = 16
COALESCE_BELOW = 4096
MSS = 65483                                    # loopback, MTU 65536, TCP timestamps on

HZ = 250
TICK = 1.0 / HZ
DELACK_TICKS = 10                              # TCP_DELACK_MIN = HZ/25
WHEEL_ROUNDING = 1
P_EXTRA_TICK = 0.02
QUICKACK = 2                                   # the first exchanges on a fresh connection

rng = random.Random(SEED)
TICK_PHASE = rng.uniform(0.0, TICK)


def stamp(t):
    d = dt.datetime.fromtimestamp(t, dt.timezone.utc)
    return d.strftime("%Y-%m-%dT%H:%M:%S.") + "%06d" % d.microsecond + "Z"


def copy_time(nbytes):
    # user->kernel copies on both ends and the server's echo of an 8-byte status
    return nbytes * 1.1e-10 * 2


def fast_latency(size):
    """One round trip on loopback with the whole request in flight at once."""
    base = 0.000022 + copy_time(size + HEADER) + rng.lognormvariate(math.log(0.000014), 0.35)
    if rng.random() < 0.008:                   # a scheduler hiccup (both processes on 2 vCPUs)
        base += rng.uniform(0.00015, 0.0009)
    return base


def stalls(size):
    return COALESCE_BELOW <= size <= MSS


def main():
    lines = []
    t = START
    lines.append("# tbench 0.9.3 ping-pong client: transport=tcp peer=127.0.0.1:7400 "
                 "tcp_nodelay=false framing=header16+payload coalesce_below=%d" % COALESCE_BELOW)
    lines.append("# sizes=%d..%d (x2) iterations=%d warmup=%d, one connection per size; "
                 "latency = write of the request to read of the 8-byte response"
                 % (SIZES[0], SIZES[-1], ITERATIONS, WARMUP))
    summary = []
    for size in SIZES:
        t += rng.uniform(0.004, 0.012)         # close the old connection, connect the new one
        lines.append("%s level=info msg=\"connected\" peer=127.0.0.1:7400 size=%d "
                     "tcp_nodelay=false mss=%d" % (stamp(t), size, MSS))
        exchanges = 0
        lat_ms = []
        for i in range(-WARMUP, ITERATIONS):
            t_start = t + rng.uniform(0.000004, 0.000012)   # clock_gettime, build the frame
            exchanges += 1
            if stalls(size) and exchanges > QUICKACK:
                # the header reaches the server, which arms its delayed-ACK timer
                t_arm = t_start + 0.000006 + copy_time(HEADER)
                k = math.floor((t_arm - TICK_PHASE) / TICK)
                fire = TICK_PHASE + (k + DELACK_TICKS + WHEEL_ROUNDING) * TICK
                if rng.random() < P_EXTRA_TICK:
                    fire += TICK
                # pure ACK -> held payload leaves -> server reads the frame -> 8-byte response
                t_end = fire + 0.000012 + copy_time(size) + rng.uniform(0.000008, 0.000020)
            else:
                t_end = t_start + fast_latency(size)
            latency = t_end - t_start
            t = t_end + rng.uniform(0.000003, 0.000009)      # format and write the line
            if i >= 0:
                lat_ms.append(latency * 1000.0)
                lines.append("%s size=%d iter=%d latency_ms=%.3f" % (stamp(t), size, i, latency * 1000.0))
            t += rng.uniform(0.0000005, 0.000002)
        lat_ms.sort()
        q = lambda p: lat_ms[min(len(lat_ms) - 1, int(p * len(lat_ms)))]
        t += rng.uniform(0.00002, 0.00006)
        lines.append("%s level=info msg=\"size done\" size=%d n=%d p50=%.3fms p90=%.3fms p99=%.3fms max=%.3fms"
                     % (stamp(t), size, len(lat_ms), q(0.5), q(0.9), q(0.99), lat_ms[-1]))
        summary.append((size, q(0.5), q(0.99)))
    with open(OUT, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    print("%s: %d lines; p50 by size: %s" % (os.path.basename(OUT), len(lines),
          ", ".join("%d:%.3f" % (s, p) for s, p, _ in summary)), file=sys.stderr)


if __name__ == "__main__":
    main()
