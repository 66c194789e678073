#!/usr/bin/env python3
"""check-examples.py — every catalog example is what its generator prints.

Each [[example]] of patterns/ID.toml is the output of patterns/examples/ID__N_kind.py (N: the
example's place in the file, from 1; kind: match or nomatch). This runs every generator and
compares its output with the example's log; it exits 1 on a difference, on an example without a
generator and on a generator without an example.

  scripts/check-examples.py [PATTERNS_DIR]
"""
import os
import re
import subprocess
import sys
import tomllib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    folder = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "patterns")
    scripts = os.path.join(folder, "examples")
    present = {f for f in os.listdir(scripts) if f.endswith(".py")}
    problems, checked = [], 0
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".toml"):
            continue
        with open(os.path.join(folder, name), "rb") as f:
            cause = tomllib.load(f)
        for n, example in enumerate(cause.get("example", []), start=1):
            kind = "match" if example["expect"] == "match" else "nomatch"
            script = f"{cause['id']}__{n}_{kind}.py"
            if script not in present:
                problems.append(f"patterns/{name} example {n}: no generator examples/{script}")
                continue
            present.discard(script)
            out = subprocess.run([sys.executable, os.path.join(scripts, script)], capture_output=True, text=True)
            if out.returncode != 0:
                problems.append(f"examples/{script}: exit status {out.returncode}: {out.stderr.strip()[-200:]}")
            elif out.stdout.strip("\n") != example["log"].strip("\n"):
                problems.append(f"patterns/{name} example {n}: differs from what examples/{script} prints")
            checked += 1
    for script in sorted(present):
        if re.match(r".+__\d+_(?:match|nomatch)\.py$", script):
            problems.append(f"examples/{script}: no such example")
    for problem in problems:
        print("check-examples.py:", problem, file=sys.stderr)
    print(f"check-examples.py: {checked} examples, {len(problems)} problems")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
