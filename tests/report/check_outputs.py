#!/usr/bin/env python3
"""Every output of one report tells the same numbers, and the Markdown and HTML ones render.

For each sample log: runs gapscan with --output text, json, markdown and html; renders the Markdown
with Python-Markdown (Debian's python3-markdown, extensions tables and fenced_code) and checks
that it has the profile table with one row per finding of the JSON report, whose rank, cause,
confidence, count and requests are the JSON's; that each named suspect's section and fenced
example are there; that a log without a named cause has the gap summary table with the JSON's
numbers; that no terminal escape is in it; and that the text report prints the same
confidences and gap counts. The HTML page (parsed with Python's html.parser) must hold the same
profile table, and per named suspect a histogram with one rect.bar per non-empty bin of the
JSON's gap histogram, one line.mode, one rect.window when the cause has a catalog value, and a
timeline with one line.tick per timeline point and one rect.stall per stall; one rect.share
per finding; no script, no external reference. The text and Markdown reports draw the timeline
of each named suspect that has one. tests/report/check_html_chromium.py loads the same pages
in a browser.

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


class Plots(html.parser.HTMLParser):
    """Per section (suspect-N, or "" outside one) and plot (data-plot), the count of each
    element class inside it; plus every src/href value and whether a <script> is present."""

    def __init__(self):
        super().__init__()
        self.counts = {}  # (section, plot) -> {class: n}
        self.references, self.script = [], False
        self._section, self._plot = "", None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "script":
            self.script = True
        for key in ("src", "href"):
            if key in a:
                self.references.append(a[key])
        if tag == "section" and a.get("id", "").startswith("suspect-"):
            self._section = a["id"]
        elif tag == "svg":
            self._plot = a.get("data-plot")
            self.counts.setdefault((self._section, self._plot), {})
        elif self._plot is not None and "class" in a:
            plot = self.counts[(self._section, self._plot)]
            plot[a["class"]] = plot.get(a["class"], 0) + 1

    def handle_endtag(self, tag):
        if tag == "svg":
            self._plot = None
        elif tag == "section":
            self._section = ""


def expected_plots(report):
    """What the HTML page of a JSON report must draw, keyed as Plots.counts."""
    bars = sum(1 for c in report["analysis"]["gap_histogram"]["counts"] if c > 0)
    expected = {}
    findings = report["findings"]
    if findings:
        expected[("", "wall-share")] = {"share": len(findings)}
    for f in findings:
        if not (f["likely"] or f["unexplained"]):
            continue
        section = f"suspect-{f['rank']}"
        if f["values"] == "gaps" and bars:
            expected[(section, "histogram")] = {"bar": bars, "mode": 1, "window": 1 if f["delay"] else 0}
        t = f["timeline"]
        if t and t["span_ms"] > 0:
            expected[(section, "timeline")] = {"tick": len(t["points"]), "stall": t["stalls"]}
    if not any(f["likely"] or f["unexplained"] for f in findings) and bars:
        expected[("", "histogram")] = {"bar": bars, "mode": 0, "window": 0}
    return expected


def compare_plots(counts, expected, what, check):
    """Checks the drawn element counts against the expected ones (missing classes count 0)."""
    for key, classes in expected.items():
        got = counts.get(key)
        check(got is not None, f"{what}: no {key[1]} plot in {key[0] or 'the page'}")
        if got is None:
            continue
        for cls, n in classes.items():
            check(got.get(cls, 0) == n, f"{what}: {key}: {got.get(cls, 0)} {cls} elements, expected {n}")


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
        for finding in named:
            if finding["timeline"] and finding["timeline"]["span_ms"] > 0:
                check(any("stalls " in b for b in parsed.blocks), f"{sample}: no timeline in the Markdown")
                check("Timeline   " in text, f"{sample}: no timeline in the text report")

        page_html = run(gapscan, source, sample, "html")
        tables = Tables()
        tables.feed(page_html)
        plots = Plots()
        plots.feed(page_html)
        check(not plots.script, f"{sample}: the HTML page has a script")
        check(not [r for r in plots.references if not r.startswith("#")],
              f"{sample}: the HTML page refers outside itself: {plots.references}")
        check("url(" not in page_html and "@import" not in page_html, f"{sample}: the HTML page's style loads something")
        if findings:
            profile = next((t for t in tables.tables if t and t[0][:2] == ["rank", "cause"]), None)
            check(profile is not None and len(profile) == 1 + len(findings), f"{sample}: HTML profile table rows")
            for row, finding in zip((profile or [])[1:], findings):
                check(int(row[0]) == finding["rank"] and finding["cause"] in row[1], f"{sample}: HTML row {row}")
                check(row[2].split()[0] == f"{finding['confidence']:.2f}", f"{sample}: HTML confidence {row[2]}")
                check(number(row[5]) == finding["gaps"] and number(row[6]) == finding["requests"],
                      f"{sample}: HTML counts {row}")
        if not named:
            check("No characteristic delay found" in page_html, f"{sample}: HTML lacks 'No characteristic delay found'")
            summary = next((t for t in tables.tables if t and t[0][:2] == ["gaps", "median"]), None)
            check(summary is not None and number(summary[1][0]) == report["analysis"]["gaps"],
                  f"{sample}: HTML gap summary table")
        compare_plots(plots.counts, expected_plots(report), f"{sample} (HTML)", check)
        print(f"{sample}: {len(findings)} findings, {len(named)} named; {len(parsed.tables)} tables, "
              f"{len(parsed.blocks)} fenced blocks; HTML plots {sorted(plots.counts)}")
    for failure in failures:
        print("FAIL", failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
