#!/usr/bin/env bash
# Builds the libFuzzer targets (tests/fuzz) with clang in build/fuzz, writes their seed corpora
# (scripts/fuzz-seeds.py) and runs each target for a bounded time. Exits 1 when a target
# crashes, hangs (over 10 s on one input) or runs out of memory; the input that did it is kept
# in build/fuzz/artifacts/ and named in the output.
#   scripts/fuzz.sh                     every target, 30 s each (CI)
#   scripts/fuzz.sh --time 600          every target, 10 minutes each
#   scripts/fuzz.sh --time 3600 fuzz_read fuzz_parser_generic
#                                       named targets only
#   scripts/fuzz.sh --seed 1            libFuzzer's random seed fixed (CI: the same inputs are
#                                       tried on every run, so a run fails only on a real change)
# The corpus each run grows is kept in build/fuzz/corpus/<target> and reused by the next run.
set -euo pipefail
GAPSCAN_ROOT=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=scripts/deps.sh
source "$GAPSCAN_ROOT/scripts/deps.sh"

seconds=30
seed=0
targets=()
while [[ $# -gt 0 ]]; do
  case $1 in
    --time) seconds=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    -h | --help) sed -n '2,12p' "$0"; exit 0 ;;
    -*) echo "fuzz.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
    *) targets+=("$1"); shift ;;
  esac
done

gapscan_install "${GAPSCAN_BUILD_PACKAGES[@]}" "${GAPSCAN_FUZZ_PACKAGES[@]}"
dir=$GAPSCAN_ROOT/build/fuzz
CXX=clang++ gapscan_build "$dir" RelWithDebInfo gapscan_fuzzers -DCMAKE_CXX_COMPILER=clang++ \
  -DGAPSCAN_FUZZ=ON -DGAPSCAN_BUILD_TESTS=OFF
# The seeds need `gapscan formats`: the fuzz build's own binary prints the same.
cmake --build "$dir" -j "$(nproc)" --target gapscan >&2
rm -rf "$dir/seeds"
python3 "$GAPSCAN_ROOT/scripts/fuzz-seeds.py" "$GAPSCAN_ROOT" "$dir/gapscan" "$dir/seeds"
if [[ ${#targets[@]} -eq 0 ]]; then
  mapfile -t targets < <(cd "$dir/seeds" && ls)
fi

mkdir -p "$dir/artifacts"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
failed=()
for target in "${targets[@]}"; do
  [[ -x $dir/$target ]] || { echo "fuzz.sh: no fuzz target '$target'" >&2; exit 2; }
  corpus=$dir/corpus/$target
  mkdir -p "$corpus"
  max_len=16384
  [[ $target == fuzz_scan ]] && max_len=4096
  log=$dir/artifacts/$target.log
  if "$dir/$target" "$corpus" "$dir/seeds/$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
       -max_len="$max_len" -seed="$seed" -artifact_prefix="$dir/artifacts/$target-" -print_final_stats=1 > "$log" 2>&1; then
    printf '%-30s ok   %s\n' "$target" "$(grep -Eo 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -Eo '[0-9]+$') inputs in ${seconds} s, corpus $(ls "$corpus" | wc -l)"
  else
    printf '%-30s FAIL %s\n' "$target" "$(grep -Eo 'artifact_prefix.*|Test unit written to .*' "$log" | tail -n 1)"
    grep -E '^(==[0-9]+==ERROR|SUMMARY|.*runtime error)' "$log" | head -n 5 || true
    failed+=("$target")
  fi
done
if [[ ${#failed[@]} -gt 0 ]]; then
  echo "fuzz.sh: ${#failed[@]} target(s) failed: ${failed[*]} (logs in $dir/artifacts)" >&2
  exit 1
fi
