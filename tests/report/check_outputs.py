#!/usr/bin/env python3
"""Every output of one report tells the same numbers, and the Markdown one renders.

For each sample log: runs gapscan with --output text, json and markdown; renders the Markdown
with Python-Markdown (Debian's python3-markdown, extensions tables and fenced_code) and checks
that it has the profile table with one row per finding of the JSON report, whose rank, cause,
confidence, count and requests are the JSON's; that each named suspect's section and fenced
example are there; that a log without a named cause has the gap summary table with the JSON's
numbers; that no terminal escape is in it; and that the text report prints the same
confidences and gap counts.

usage: check_outputs.py GAPSCAN SOURCE_DIR
"""
import html.parser
import json
import pathlib
import subprocess
import sys

import markdown

SAMPLES = ["samples/memcached-nagle.log", "samples/memcached-nodelay.log",
           "samples/redis-bgsave/client.log.gz samples/redis-bgsave/redis.log"]


class Tables(html.parser.HTMLParser):
    """The tables of an HTML page as lists of rows of cell texts, and the <pre><code> blocks."""

    def __init__(self):
        super().__init__()
        self.tables, self.blocks = [], []
        self._cell = self._row = None
        self._code = None
        self._in_pre = False

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            self.tables.append([])
        elif tag == "tr":
            self._row = []
        elif tag in ("td", "th"):
            self._cell = ""
        elif tag == "pre":
            self._in_pre = True
        elif tag == "code" and self._in_pre:
            self._code = ""

    def handle_endtag(self, tag):
        if tag in ("td", "th"):
            self._row.append(self._cell.strip())
            self._cell = None
        elif tag == "tr":
            self.tables[-1].append(self._row)
            self._row = None
        elif tag == "pre":
            if self._code is not None:
                self.blocks.append(self._code)
            self._code = None
            self._in_pre = False

    def handle_data(self, data):
        if self._cell is not None:
            self._cell += data
        if self._code is not None:
            self._code += data


def run(gapscan, source, args, output):
    command = [gapscan, "--output", output] + args.split()
    result = subprocess.run(command, cwd=source, capture_output=True, text=True, env={"TZ": "UTC", "LC_ALL": "C"})
    if result.returncode not in (0, 3):
        raise SystemExit(f"{' '.join(command)}: exit {result.returncode}: {result.stderr}")
    return result.stdout


def number(text):
    return int(text.replace(" ", "").replace("\u202f", ""))


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    gapscan, source = sys.argv[1], pathlib.Path(sys.argv[2])
    failures = []

    def check(condition, what):
        if not condition:
            failures.append(what)

    for sample in SAMPLES:
        report = json.loads(run(gapscan, source, sample, "json"))
        text = run(gapscan, source, sample, "text")
        page = run(gapscan, source, sample, "markdown")
        check("\x1b" not in page, f"{sample}: a terminal escape in the Markdown")
        parsed = Tables()
        parsed.feed(markdown.markdown(page, extensions=["tables", "fenced_code"]))
        findings = report["findings"]
        named = [f for f in findings if f["likely"] or f["unexplained"]]
        if findings:
            profile = next((t for t in parsed.tables if t and t[0][:2] == ["rank", "cause"]), None)
            check(profile is not None, f"{sample}: no profile table rendered")
            if profile is not None:
                check(len(profile) == 1 + len(findings),
                      f"{sample}: profile table has {len(profile) - 1} rows, JSON {len(findings)} findings")
                for row, finding in zip(profile[1:], findings):
                    check(int(row[0]) == finding["rank"], f"{sample}: rank {row[0]} != {finding['rank']}")
                    check(f"({finding['cause']})" in row[1], f"{sample}: cause {row[1]!r} != {finding['cause']}")
                    check(row[2].split()[0] == f"{finding['confidence']:.2f}",
                          f"{sample}: confidence {row[2]} != {finding['confidence']}")
                    check(number(row[5]) == finding["gaps"], f"{sample}: count {row[5]} != {finding['gaps']}")
                    check(number(row[6]) == finding["requests"], f"{sample}: requests {row[6]} != {finding['requests']}")
        for finding in named:
            check(f"### {finding['rank']}. " in page, f"{sample}: no section for suspect {finding['rank']}")
            check(f"confidence {finding['confidence']:.2f}" in text,
                  f"{sample}: the text report lacks confidence {finding['confidence']:.2f}")
            if finding["examples"]:
                after = finding["examples"][0]["after"]["where"]
                check(any(after in block for block in parsed.blocks),
                      f"{sample}: the example line {after} is not in a fenced block")
        if not named:
            analysis = report["analysis"]
            check("No characteristic delay found" in page and "No characteristic delay found" in text,
                  f"{sample}: no 'No characteristic delay found'")
            summary = next((t for t in parsed.tables if t and t[0][:2] == ["gaps", "median"]), None)
            check(summary is not None, f"{sample}: no gap summary table")
            if summary is not None:
                check(number(summary[1][0]) == analysis["gaps"], f"{sample}: gaps {summary[1][0]} != {analysis['gaps']}")
            largest = analysis["largest_gap"]
            check(largest is not None and any(largest["after"]["where"] in b for b in parsed.blocks),
                  f"{sample}: the largest gap's line is not in a fenced block")
        print(f"{sample}: {len(findings)} findings, {len(named)} named; {len(parsed.tables)} tables, "
              f"{len(parsed.blocks)} fenced blocks")
    for failure in failures:
        print("FAIL", failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
