#!/usr/bin/env python3
"""gapscan --follow names a suspect while the log is still being written.

1. A pipe: samples/memcached-nagle.log is written into gapscan's standard input at a controlled
   rate (50 lines every 50 ms, 1 000 lines/s, about 3.3 s), then the pipe stays open 2 s more.
   The suspect must be printed while the pipe is open, after at least 100 lines (the evidence
   takes some requests), with the number of lines read so far, before the writer has sent all of
   them plus one second; after the pipe closes the whole report follows and gapscan exits 0.
2. The same for samples/memcached-nodelay.log (Nagle off): nothing is announced, and the final
   report says "No characteristic delay found".
3. With --output json, the suspect goes to stderr and the final JSON report is the one a plain
   scan of the same log gives (the snapshots taken while following change nothing), but for the
   input's name.
4. A growing file: the nagle log is appended to a file in the same way; gapscan --follow FILE
   announces the suspect, keeps waiting at the end of the file, and on SIGINT prints the report
   of what was read and exits 0.

usage: follow_test.py GAPSCAN SOURCE_DIR
"""
import json
import pathlib
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time

ANNOUNCE = "a suspect became likely"
BATCH, PAUSE = 50, 0.05


class Watched:
    """A gapscan process whose stdout lines are collected with the time each arrived."""

    def __init__(self, command, **kwargs):
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                        env={"TZ": "UTC", "LC_ALL": "C.UTF-8", "NO_COLOR": "1"}, **kwargs)
        self.lines = []  # (time, line)
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        for line in self.process.stdout:
            self.lines.append((time.monotonic(), line))

    def write(self, text):
        """Writes to its standard input at once (a pipe: flushed)."""
        self.process.stdin.write(text)
        self.process.stdin.flush()

    def announced(self):
        return [(t, line) for t, line in self.lines if ANNOUNCE in line]

    def finish(self, timeout=60):
        stderr = self.process.stderr.read()
        code = self.process.wait(timeout=timeout)
        self.reader.join(timeout=10)
        return code, "".join(line for _, line in self.lines), stderr


def feed(write, lines):
    """Writes the lines in batches at a controlled rate; returns (time, lines written) per batch."""
    progress = []
    for start in range(0, len(lines), BATCH):
        write("".join(lines[start:start + BATCH]))
        progress.append((time.monotonic(), min(len(lines), start + BATCH)))
        time.sleep(PAUSE)
    return progress


def fed_by(progress, moment):
    """Lines written at `moment`."""
    written = 0
    for t, n in progress:
        if t <= moment:
            written = n
    return written


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    gapscan, source = sys.argv[1], pathlib.Path(sys.argv[2])
    nagle = (source / "samples/memcached-nagle.log").read_text().splitlines(True)
    nodelay = (source / "samples/memcached-nodelay.log").read_text().splitlines(True)
    failures = []

    def check(condition, what):
        if not condition:
            failures.append(what)

    # 1. A pipe.
    watched = Watched([gapscan, "--follow"], stdin=subprocess.PIPE)

    progress = feed(watched.write, nagle)
    time.sleep(2)
    closed = time.monotonic()
    announced_before_close = watched.announced()
    watched.process.stdin.close()
    code, out, err = watched.finish()
    check(code == 0, f"pipe: exit {code}: {err}")
    check(len(announced_before_close) == 1, f"pipe: {len(announced_before_close)} announcements before the pipe closed")
    if announced_before_close:
        moment, line = announced_before_close[0]
        lines_said = int(re.match(r"After ([\d ]+) lines", line).group(1).replace(" ", ""))
        written = fed_by(progress, moment)
        print(f"pipe: announced after {lines_said} lines read, {written} of {len(nagle)} written, "
              f"{closed - moment:.1f} s before the pipe closed")
        check(100 <= lines_said <= written, f"pipe: announced after {lines_said} lines, {written} written")
        check(moment < progress[-1][0] + 1.0, "pipe: announced only after the whole log was written")
        after = out[out.index(ANNOUNCE):]
        check("nagle_delack_noreply_pipeline" in after.splitlines()[2], "pipe: the announced suspect is not the Nagle one")
    check("Profile" in out and out.rindex("Profile") > out.index(ANNOUNCE) if ANNOUNCE in out else False,
          "pipe: no final report after the announcement")

    # 2. A healthy log: nothing announced.
    watched = Watched([gapscan, "--follow", "-"], stdin=subprocess.PIPE)

    feed(watched.write, nodelay)
    watched.process.stdin.close()
    code, out, err = watched.finish()
    check(code == 0, f"healthy: exit {code}: {err}")
    check(ANNOUNCE not in out, "healthy: a suspect was announced on a log without one")
    check("No characteristic delay found" in out, "healthy: no final verdict")
    print(f"healthy: {len(out.splitlines())} lines of output, no announcement: {ANNOUNCE not in out}")

    # 3. JSON: the snapshots leave the final report as a plain scan makes it.
    watched = Watched([gapscan, "--follow", "--output", "json"], stdin=subprocess.PIPE)

    feed(watched.write, nagle)
    watched.process.stdin.close()
    code, out, err = watched.finish()
    plain = subprocess.run([gapscan, "--output", "json", "samples/memcached-nagle.log"], cwd=source,
                           capture_output=True, text=True, env={"TZ": "UTC", "LC_ALL": "C.UTF-8"}).stdout
    followed = json.loads(out)
    expected = json.loads(plain.replace("samples/memcached-nagle.log", "<stdin>"))
    for report in (followed, expected):
        del report["inputs"], report["diagnostics"]
    check(code == 0 and ANNOUNCE in err, f"json: exit {code}, announced on stderr: {ANNOUNCE in err}")
    check(followed == expected, "json: the followed report differs from a plain scan's")
    print(f"json: announced on stderr, final report {'equal to' if followed == expected else 'DIFFERENT from'} "
          f"a plain scan's")

    # 4. A growing file, stopped by SIGINT.
    with tempfile.TemporaryDirectory(prefix="gapscan-follow-") as tmp:
        path = pathlib.Path(tmp) / "app.log"
        path.write_text("")
        watched = Watched([gapscan, "--follow", str(path)])
        with open(path, "a") as log:
            def append(text):
                log.write(text)
                log.flush()

            progress = feed(append, nagle)
        deadline = time.monotonic() + 10
        while not watched.announced() and time.monotonic() < deadline:
            time.sleep(0.1)
        time.sleep(1)
        check(watched.process.poll() is None, "file: gapscan stopped at the end of the file instead of waiting")
        watched.process.send_signal(signal.SIGINT)
        code, out, err = watched.finish()
        check(code == 0, f"file: exit {code} after SIGINT: {err}")
        check(len(watched.announced()) == 1, f"file: {len(watched.announced())} announcements")
        check("stopped following by SIGINT" in err, f"file: stderr does not say how it stopped: {err!r}")
        check(f"{len(nagle):,}".replace(",", " ") in out, "file: the final report does not count every line")
        print(f"file: announced {len(watched.announced())}, exit {code} after SIGINT")

    for failure in failures:
        print("FAIL", failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
