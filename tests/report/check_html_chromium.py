#!/usr/bin/env python3
"""The HTML report loads in a browser without console errors, with every plot drawn.

For each sample log: writes gapscan's --output html page to a file, loads it in headless
Chromium (Debian's chromium package: --headless --dump-dom, the browser's log on stderr) and
checks that the browser logged no console message, and that the DOM it built holds each plot
with the number of bars and marks the JSON report of the same scan implies (check_outputs.py's
expected_plots: a bar per non-empty histogram bin, the mode, the catalog window, a tick per
timeline line, a span per stall, a wall-share bar per finding).

Two controls show that the checks can fail: a page with a script error must be reported as
having a console error, and a sample's page with one histogram bar removed must fail the count.

usage: check_html_chromium.py GAPSCAN SOURCE_DIR
"""
import json
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from check_outputs import SAMPLES, Plots, compare_plots, expected_plots, run  # noqa: E402

CONSOLE = re.compile(r":CONSOLE[:(]")


def browser():
    for name in ("chromium", "chromium-browser"):
        path = shutil.which(name)
        if path:
            return path
    raise SystemExit("chromium not found: install Debian's chromium package (scripts/install-deps.sh --test does)")


def load(chromium, page, profile):
    """The DOM Chromium built from `page`, and the console lines it logged."""
    result = subprocess.run(
        [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--enable-logging=stderr",
         "--v=0", f"--user-data-dir={profile}", "--dump-dom", page.as_uri()],
        capture_output=True, text=True, timeout=120)
    if result.returncode != 0:
        raise SystemExit(f"chromium exited {result.returncode} on {page}: {result.stderr[-2000:]}")
    return result.stdout, [line for line in result.stderr.splitlines() if CONSOLE.search(line)]


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    gapscan, source = sys.argv[1], pathlib.Path(sys.argv[2])
    chromium = browser()
    failures = []

    def check(condition, what):
        if not condition:
            failures.append(what)

    with tempfile.TemporaryDirectory(prefix="gapscan-html-") as tmp:
        tmp = pathlib.Path(tmp)
        # Control 1: a script error is seen.
        bad = tmp / "bad.html"
        bad.write_text("<!DOCTYPE html><html><body><script>no_such_function();</script></body></html>")
        _, console = load(chromium, bad, tmp / "profile")
        check(any("no_such_function" in line for line in console),
              "control: a page with a script error logged no console error (the check cannot fail)")

        for index, sample in enumerate(SAMPLES):
            report = json.loads(run(gapscan, source, sample, "json"))
            page = tmp / f"report-{index}.html"
            page.write_text(run(gapscan, source, sample, "html"), encoding="utf-8")
            dom, console = load(chromium, page, tmp / "profile")
            check(not console, f"{sample}: console messages: {console}")
            check("</svg>" in dom or not report["analysis"]["gaps"], f"{sample}: no SVG in the loaded page")
            plots = Plots()
            plots.feed(dom)
            expected = expected_plots(report)
            compare_plots(plots.counts, expected, f"{sample} (Chromium)", check)
            drawn = {key: plots.counts.get(key, {}) for key in expected}
            print(f"{sample}: loaded, {len(console)} console messages; plots {drawn}")

            # Control 2: one bar fewer fails the count.
            if index == 0:
                missing = []
                thinner = re.sub(r'<rect class="bar"[^>]*>.*?</rect>', "", dom, count=1)
                damaged = Plots()
                damaged.feed(thinner)
                compare_plots(damaged.counts, expected, "control", lambda ok, what: missing.append(what) if not ok else None)
                check(bool(missing), "control: a page with a bar removed passed the count (the check cannot fail)")
    for failure in failures:
        print("FAIL", failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
