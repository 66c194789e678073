#!/usr/bin/env bash
# quiet_corpus.sh — does gapscan stay quiet on real logs without an incident?
#
# Runs `gapscan --output json` on every file of the real-log corpus (../shared/corpus by
# default: logs written by other projects; they stay outside this repository) and on the
# repository's healthy control samples, and lists every suspect at confidence >= 0.6 (a
# "likely" cause). Suspects that are right (the file really has regular gaps, e.g. a sample
# generator that sleeps 500 ms between lines) are listed with the reason in
# bench/quiet_corpus_expected.tsv; any other is a false alarm.
#
#   bench/quiet_corpus.sh [--gapscan PATH] [--corpus DIR] [--check]
#
# --check exits 1 on any false alarm. Without the corpus only the control samples are run.
set -euo pipefail

root=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/.." && pwd)
gapscan=$root/build/release/gapscan
corpus=${GAPSCAN_CORPUS:-$root/../shared/corpus}
expected=$root/bench/quiet_corpus_expected.tsv
check=0

while [[ $# -gt 0 ]]; do
  case $1 in
    --gapscan) gapscan=$2; shift 2 ;;
    --corpus) corpus=$2; shift 2 ;;
    --check) check=1; shift ;;
    -h | --help) sed -n '2,14p' "$0"; exit 0 ;;
    *) echo "quiet_corpus.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
done
[[ -x $gapscan ]] || { echo "quiet_corpus.sh: no gapscan binary at $gapscan (build it first)" >&2; exit 2; }
command -v python3 >/dev/null || { echo "quiet_corpus.sh: python3 is needed to read the JSON reports" >&2; exit 2; }

inputs=("$root/samples/memcached-nodelay.log")
labels=("samples/memcached-nodelay.log")
if [[ -f $corpus/MANIFEST.tsv ]]; then
  corpus=$(cd "$corpus" && pwd)
  while IFS=$'\t' read -r file _; do
    [[ $file == file || -z $file ]] && continue
    inputs+=("$corpus/$file")
    labels+=("corpus/$file")
  done < "$corpus/MANIFEST.tsv"
else
  echo "quiet_corpus.sh: no corpus at $corpus (set GAPSCAN_CORPUS or --corpus): control samples only"
fi

report=$(mktemp)
trap 'rm -f "$report"' EXIT
for i in "${!inputs[@]}"; do
  printf '%s\t' "${labels[$i]}" >> "$report"
  "$gapscan" --output json "${inputs[$i]}" 2> /dev/null | python3 -c '
import json, sys
try:
    d = json.load(sys.stdin)
except ValueError:
    print("ERROR\t0")
    sys.exit(0)
likely = [f for f in d["findings"] if f["confidence"] >= d.get("likely_threshold", 0.6)]
print(",".join(sorted({f["cause"] for f in likely})) or "-", max([f["confidence"] for f in d["findings"]] + [0]), sep="\t")
' >> "$report" || printf 'ERROR\t0\n' >> "$report"
done

python3 - "$report" "$expected" "$check" <<'PY'
import sys
report, expected_path, check = sys.argv[1], sys.argv[2], sys.argv[3] == "1"
expected = {}
for line in open(expected_path, encoding="utf-8"):
    if line.startswith("#") or not line.strip():
        continue
    file, cause, why = line.rstrip("\n").split("\t", 2)
    expected[(file, cause)] = why
files = alarms = right = 0
top = []
for line in open(report, encoding="utf-8"):
    file, causes, best = line.rstrip("\n").split("\t")
    files += 1
    top.append((float(best), file))
    if causes == "-":
        continue
    for cause in causes.split(","):
        if (file, cause) in expected:
            right += 1
            print(f"  expected   {file}: {cause} ({expected[(file, cause)]})")
        else:
            alarms += 1
            print(f"  FALSE ALARM {file}: {cause}")
top.sort(reverse=True)
print(f"{files} files; {right} expected likely causes; {alarms} false alarms; highest confidences: "
      + ", ".join(f"{c:.2f}" for c, _ in top[:5]))
if check and alarms:
    sys.exit(1)
PY
