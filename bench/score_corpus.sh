#!/usr/bin/env bash
# score_corpus.sh — how well gapscan finds the time of every line of real logs.
#
# Runs `gapscan events` on every file of the real-log corpus (../shared/corpus by default: logs
# written by other projects, with per-line ground truth; they stay outside this repository)
# and scores the output with the corpus's own scorer (tools/score.py): recall, precision and
# accuracy per folder and overall, and the files where at least 99 % of the timestamped lines
# are read at the right instant. lnav's score on the same files is printed beside it.
#
#   bench/score_corpus.sh [--gapscan PATH] [--corpus DIR] [--workdir DIR] [--check]
#
# --check exits 1 when a timestamped line is not read (recall below 100 %), when fewer than
# 99 % are read at the right instant, or when fewer than 97 % of the files pass (the goals of
# the formats work). Without the corpus the script says so and exits 0.
set -euo pipefail

root=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/.." && pwd)
gapscan=$root/build/release/gapscan
corpus=${GAPSCAN_CORPUS:-$root/../shared/corpus}
workdir=$root/build/corpus
check=0
year=

while [[ $# -gt 0 ]]; do
  case $1 in
    --gapscan) gapscan=$2; shift 2 ;;
    --corpus) corpus=$2; shift 2 ;;
    --workdir) workdir=$2; shift 2 ;;
    --check) check=1; shift ;;
    --year) year=$2; shift 2 ;;
    -h | --help) sed -n '2,15p' "$0"; exit 0 ;;
    *) echo "score_corpus.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
done

if [[ ! -f $corpus/MANIFEST.tsv || ! -f $corpus/tools/score.py ]]; then
  echo "score_corpus.sh: no corpus at $corpus (set GAPSCAN_CORPUS or --corpus): skipped"
  exit 0
fi
[[ -x $gapscan ]] || { echo "score_corpus.sh: no gapscan binary at $gapscan (build it first)" >&2; exit 2; }
command -v python3 >/dev/null || { echo "score_corpus.sh: python3 is needed to run the corpus scorer" >&2; exit 2; }

corpus=$(cd "$corpus" && pwd)
out=$workdir/events
rm -rf "$out"
mkdir -p "$out"
files=0
while IFS=$'\t' read -r file _; do
  [[ $file == file || -z $file ]] && continue
  mkdir -p "$out/$(dirname "$file")"
  "$gapscan" events --group-by none ${year:+--year "$year"} "$corpus/$file" > "$out/$file.tsv" 2> /dev/null || true
  files=$((files + 1))
done < "$corpus/MANIFEST.tsv"

(cd "$corpus" && python3 tools/score.py . truth "$out" --per-file "$workdir/per-file.tsv" \
  --summary "$workdir/summary.txt" --name gapscan > /dev/null)
echo "gapscan events on $files corpus files ($corpus); per file: $workdir/per-file.tsv"
cat "$workdir/summary.txt"
echo
echo "lnav on the same files (from the corpus):"
grep -E '^(group|ALL\b)' "$corpus/LNAV_SCORE.txt" | grep -v CONTIGUOUS || true

if [[ $check == 1 ]]; then
  read -r accuracy recall pass_share < <(awk -F'\t' '$1 == "ALL" { print $10, $8, $13 }' "$workdir/summary.txt")
  echo "check: recall $recall, accuracy $accuracy, files passing $pass_share (goals 1.00, 0.99, 0.97)"
  awk -v r="$recall" -v a="$accuracy" -v p="$pass_share" 'BEGIN { exit !(r >= 1.0 && a >= 0.99 && p >= 0.97) }' || {
    echo "score_corpus.sh: below the goals" >&2
    exit 1
  }
fi
