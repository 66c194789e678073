#!/usr/bin/env python3
"""reliability.py — does gapscan's confidence mean what it says?

Runs `gapscan --output json` on every log whose cause is known and bins the causes it reports by
confidence: in each bin, the share of reported causes that are right. The logs:

  * every [[example]] of patterns/*.toml: a "match" example's cause is known; a "no-match"
    example says only which cause it is not (other causes named there are not counted);
  * bench/reliability_truth.tsv: samples, incident fixtures and healthy controls, each with its
    cause or "-" for a log without an incident (every cause named there is wrong);
  * the seed incidents (tests/seed/cases.tsv), each written by its generate.py;
  * the real-log corpus (../shared/corpus, skipped when absent): healthy, except the files
    listed in bench/quiet_corpus_expected.tsv with the cause they really show;
  * the real incidents (../shared/incidents/cases.tsv, skipped when absent): a fault's cause is
    right when it matches the case's expected regex, a control is healthy.

A reported cause is a finding named by a catalog cause (not "unknown"). On a log with a known
cause, a reported cause is right when it is that cause.

  bench/reliability.py [--gapscan PATH] [--corpus DIR] [--no-corpus] [--incidents DIR] [--check]

--check exits 1 when fewer than 95 % of the causes reported at 0.6 or more are right, or when a
healthy log gets a cause at 0.6 or more.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import tomllib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LIKELY = 0.6


def run(gapscan, paths, patterns):
    cmd = [gapscan, "--output", "json", "--patterns", patterns] + paths
    out = subprocess.run(cmd, capture_output=True, text=True, env=dict(os.environ, TZ="UTC", LC_ALL="C"))
    try:
        return json.loads(out.stdout)["findings"]
    except (ValueError, KeyError):
        return None


def catalog_cases(patterns, tmp):
    cases = []
    for name in sorted(os.listdir(patterns)):
        if not name.endswith(".toml"):
            continue
        with open(os.path.join(patterns, name), "rb") as f:
            cause = tomllib.load(f)
        for i, example in enumerate(cause.get("example", [])):
            path = os.path.join(tmp, f"{cause['id']}-{i}.log")
            with open(path, "w") as out:
                out.write(example["log"])
            kind = "match" if example["expect"] == "match" else "not"
            cases.append((f"patterns/{name} example {i + 1}", [path], kind, cause["id"]))
    return cases


def truth_cases(corpus):
    cases = []
    with open(os.path.join(ROOT, "bench", "reliability_truth.tsv")) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            files, cause = line.rstrip("\n").split("\t")[:2]
            paths = [os.path.join(ROOT, p) for p in files.split(",")]
            if not all(os.path.exists(p) for p in paths):
                continue
            cases.append((files, paths, "healthy" if cause == "-" else "match", cause))
    if corpus:
        expected = {}
        with open(os.path.join(ROOT, "bench", "quiet_corpus_expected.tsv")) as f:
            for line in f:
                if not line.startswith("#") and line.strip():
                    label, cause = line.split("\t")[:2]
                    expected[label] = cause
        with open(os.path.join(corpus, "MANIFEST.tsv")) as f:
            for line in f:
                file = line.split("\t")[0]
                if file in ("file", ""):
                    continue
                label = "corpus/" + file
                cause = expected.get(label)
                cases.append((label, [os.path.join(corpus, file)], "match" if cause else "healthy", cause or "-"))
    return cases


def incident_cases(incidents):
    cases = []
    with open(os.path.join(incidents, "cases.tsv"), encoding="utf-8") as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            files, want = line.rstrip("\n").split("\t")[:2]
            paths = [os.path.join(incidents, p) for p in files.split()]
            label = "incidents/" + files
            cases.append((label, paths, "healthy", "-") if want == "CONTROL" else (label, paths, "regex", want))
    return cases


def seed_cases(tmp):
    cases = []
    with open(os.path.join(ROOT, "tests", "seed", "cases.tsv")) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            name, files, cause = line.rstrip("\n").split("\t")[:3]
            out = os.path.join(tmp, "seed-" + name)
            os.makedirs(out)
            subprocess.run([sys.executable, os.path.join(ROOT, "tests", "seed", name, "generate.py"), out],
                           check=True, capture_output=True)
            cases.append((f"tests/seed/{name}", [os.path.join(out, p) for p in files.split(",")], "match", cause))
    return cases


def judge(kind, truth, findings):
    """(confidence, right) for each reported cause whose truth is known."""
    judged = []
    for f in findings:
        if f["cause"] == "unknown":
            continue
        if kind == "match":
            judged.append((f["confidence"], f["cause"] == truth))
        elif kind == "regex":
            judged.append((f["confidence"], re.search(truth, f["cause"]) is not None))
        elif kind == "healthy":
            judged.append((f["confidence"], False))
        elif f["cause"] == truth:  # a no-match example: only its own cause is known to be wrong
            judged.append((f["confidence"], False))
    return judged


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--gapscan", default=os.path.join(ROOT, "build", "release", "gapscan"))
    parser.add_argument("--corpus", default=os.environ.get("GAPSCAN_CORPUS", os.path.join(ROOT, "..", "shared", "corpus")))
    parser.add_argument("--no-corpus", action="store_true")
    parser.add_argument("--incidents",
                        default=os.environ.get("GAPSCAN_INCIDENTS", os.path.join(ROOT, "..", "shared", "incidents")))
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    if not os.access(args.gapscan, os.X_OK):
        sys.exit(f"reliability.py: no gapscan binary at {args.gapscan} (build it first)")
    corpus = None if args.no_corpus or not os.path.exists(os.path.join(args.corpus, "MANIFEST.tsv")) else args.corpus
    incidents = args.incidents if os.path.exists(os.path.join(args.incidents, "cases.tsv")) else None
    patterns = os.path.join(ROOT, "patterns")
    bins = [[0, 0] for _ in range(10)]
    first_right = first_total = healthy_alarms = 0
    wrong_likely = []
    incident_likely = [0, 0]  # causes reported at 0.6 or more on the real incidents, of which right
    with tempfile.TemporaryDirectory() as tmp:
        cases = catalog_cases(patterns, tmp) + seed_cases(tmp) + truth_cases(corpus)
        cases += incident_cases(incidents) if incidents else []
        for label, paths, kind, truth in cases:
            findings = run(args.gapscan, paths, patterns)
            if findings is None:
                print(f"reliability.py: gapscan failed on {label}", file=sys.stderr)
                sys.exit(2)
            if kind == "match":
                first_total += 1
                first_right += bool(findings) and findings[0]["cause"] == truth
            elif kind == "regex":
                first_total += 1
                first_right += bool(findings) and re.search(truth, findings[0]["cause"]) is not None
            for confidence, right in judge(kind, truth, findings):
                b = min(9, int(confidence * 10))
                bins[b][0] += 1
                bins[b][1] += right
                if confidence >= LIKELY and label.startswith("incidents/"):
                    incident_likely[0] += 1
                    incident_likely[1] += right
                if confidence >= LIKELY and not right:
                    wrong_likely.append(f"{label}: {kind} {truth}, reported at {confidence:.2f}")
                    healthy_alarms += kind == "healthy"
    print(f"{len(cases)} logs ({sum(1 for c in cases if c[2] in ('match', 'regex'))} with a known cause, "
          f"{sum(1 for c in cases if c[2] == 'healthy')} healthy, {sum(1 for c in cases if c[2] == 'not')} "
          f"near misses); corpus {'read' if corpus else 'absent'}; real incidents {'read' if incidents else 'absent'}\n")
    print("| confidence | causes reported | right | fraction right |")
    print("|---|---|---|---|")
    for b, (n, right) in enumerate(bins):
        if n:
            print(f"| {b / 10:.1f}–{(b + 1) / 10:.1f} | {n} | {right} | {right / n:.2f} |")
    likely_n = sum(n for n, _ in bins[6:])
    likely_right = sum(r for _, r in bins[6:])
    precision = likely_right / likely_n if likely_n else 1.0
    print(f"\nreported at {LIKELY} or more: {likely_right} of {likely_n} right ({precision:.1%}); "
          f"right cause first on {first_right} of {first_total} logs with a known cause; "
          f"healthy logs with a cause at {LIKELY} or more: {healthy_alarms}")
    if incidents:
        n, right = incident_likely
        print(f"real incidents: reported at {LIKELY} or more: {right} of {n} right"
              f" ({right / n if n else 1:.1%})")
    for line in wrong_likely:
        print("  wrong:", line)
    if args.check and (precision < 0.95 or healthy_alarms > 0):
        sys.exit(1)


if __name__ == "__main__":
    main()
