#!/usr/bin/env python3
"""Writes the seed corpora of the libFuzzer targets (tests/fuzz) into OUT/<target>/.

Seeds come from the project itself: the log examples of every catalog cause (patterns/*.toml),
the bundled samples (samples/), the logs of the seed incidents (tests/seed/*/generate.py), the
built-in formats' sample lines (`gapscan formats`), the catalog and preset files, and
nginx/Apache format strings. Decompressor seeds are those logs
compressed with gzip, zstd, bzip2 and xz.

usage: fuzz-seeds.py SOURCE_DIR GAPSCAN_BINARY OUT_DIR
"""
import bz2
import gzip
import lzma
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import tomllib

MAX_SEED = 8 << 10  # bytes of log per seed: small inputs fuzz fastest


def logs(source: pathlib.Path, gapscan: str) -> list[bytes]:
    found = []
    for path in sorted(source.glob("patterns/*.toml")):
        for example in tomllib.loads(path.read_text()).get("example", []):
            found.append(example["log"].encode()[:MAX_SEED])
    for path in sorted(source.glob("samples/**/*")):
        if path.suffix in (".log", ".gz") and path.is_file():
            data = gzip.open(path).read(MAX_SEED) if path.suffix == ".gz" else path.read_bytes()[:MAX_SEED]
            found.append(data)
    for generator in sorted(source.glob("tests/seed/*/generate.py")):
        with tempfile.TemporaryDirectory() as folder:
            try:
                subprocess.run([sys.executable, str(generator), folder], capture_output=True, timeout=120, check=True)
            except (subprocess.SubprocessError, OSError) as error:
                print(f"fuzz-seeds.py: skipping {generator}: {error}", file=sys.stderr)
                continue
            for path in sorted(pathlib.Path(folder).rglob("*")):
                if path.is_file():
                    data = path.read_bytes()
                    found.append(gzip.decompress(data)[:MAX_SEED] if data[:2] == b"\x1f\x8b" else data[:MAX_SEED])
    formats = subprocess.run([gapscan, "formats"], capture_output=True, text=True, check=True).stdout
    # A format that reads entries prints its sample's later lines under the first, indented.
    for sample in re.findall(r"^\s+sample: (.*(?:\n {10}\S.*)*)", formats, re.M):
        found.append((sample.replace("\n          ", "\n") + "\n") * 3)
    return [f if isinstance(f, bytes) else f.encode() for f in found]


def zstd(data: bytes) -> bytes:
    if not shutil.which("zstd"):
        return b""
    return subprocess.run(["zstd", "-q", "-c"], input=data, capture_output=True, check=True).stdout


def write(out: pathlib.Path, target: str, seeds: list[bytes]) -> None:
    folder = out / target
    folder.mkdir(parents=True, exist_ok=True)
    for number, seed in enumerate(s for s in seeds if s):
        (folder / f"seed-{number:04d}").write_bytes(seed)


def main() -> int:
    if len(sys.argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    source, gapscan, out = pathlib.Path(sys.argv[1]), sys.argv[2], pathlib.Path(sys.argv[3])
    texts = logs(source, gapscan)
    small = [t[:2048] for t in texts]
    for family in ("mediawiki_line", "monolog_line", "monolog_json", "access_log", "haproxy", "envoy", "uwsgi", "w3c",
                   "mysql_slow", "mediawiki_debug", "strace_relative", "generic"):
        write(out, f"fuzz_parser_{family}", texts)
    write(out, "fuzz_read", [b"\x00" + t for t in texts] + [b"\x01" + t for t in small])
    write(out, "fuzz_scan", small)
    write(out, "fuzz_decode_gzip", [gzip.compress(t) for t in small])
    write(out, "fuzz_decode_zstd", [zstd(t) for t in small])
    write(out, "fuzz_decode_bzip2", [bz2.compress(t) for t in small])
    write(out, "fuzz_decode_xz", [lzma.compress(t) for t in small])
    causes = sorted(p for p in source.glob("patterns/*.toml"))
    write(out, "fuzz_catalog", [p.read_bytes() for p in causes])
    presets = sorted(source.glob("patterns/presets/*.toml"))
    format_files = []
    for path in presets:
        preset = tomllib.loads(path.read_text())
        lines = "\n".join(preset.get("samples", []))
        format_files.append(path.read_bytes() + b"\n---\n" + lines.encode())
    format_files.append(b"""name = "nginx-error"
regex = '^(?P<time>\\d{4}/\\d\\d/\\d\\d \\d\\d:\\d\\d:\\d\\d) \\[(?P<level>\\w+)\\] \\d+#\\d+: (?:\\*(?P<group>\\d+) )?(?P<message>.*)'
time_layout = "%Y/%m/%d %H:%M:%S"
samples = ["2026/11/29 21:03:04 [error] 1234#0: *57 upstream timed out"]
---
2026/11/29 21:03:04 [error] 1234#0: *57 upstream timed out
2026/11/29 21:03:05 [warn] 1234#0: *58 an upstream response is buffered
""")
    # Empty regex and time layout: a regression seed (an empty regex once reached the parser).
    format_files.append(b"""name = "empty"
regex = ''
time_layout = ""
samples = ["2026/11/29 21:03:04 [error] 1234#0: *57 upstream timed out"]
---
2026/11/29 21:03:04 [error] 1234#0: *57 upstream timed out
""")
    write(out, "fuzz_format_file", format_files)
    specs = []
    for path in presets:
        preset = tomllib.loads(path.read_text())
        for key in ("nginx_log_format", "apache_log_format", "log_format"):
            if key in preset:
                specs.append(preset[key].encode())
    specs += [b'%h %l %u %t "%r" %>s %b "%{Referer}i" "%{User-agent}i" %D',
              b'$remote_addr [$time_iso8601] "$request" $status $request_time $upstream_response_time $request_id']
    write(out, "fuzz_log_format", specs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
