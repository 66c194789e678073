#!/usr/bin/env bash
# Installs what is missing (Debian packages), builds gapscan and runs the whole test suite
# through CTest.
#   scripts/test.sh              release build in build/release, warnings as errors
#   scripts/test.sh --sanitize   the same with AddressSanitizer + UndefinedBehaviorSanitizer
#                                in build/sanitize
#   scripts/test.sh --threads    the tests of the threads (-j N, the window queue, lines parsed on
#                                other threads, several inputs read at once, --follow)
#                                under ThreadSanitizer, in build/threads
set -euo pipefail
GAPSCAN_ROOT=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=scripts/deps.sh
source "$GAPSCAN_ROOT/scripts/deps.sh"

mode=release
case ${1:-} in
  "") ;;
  --sanitize) mode=sanitize ;;
  --threads) mode=threads ;;
  -h | --help) sed -n '2,9p' "$0"; exit 0 ;;
  *) echo "test.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
esac

gapscan_install "${GAPSCAN_BUILD_PACKAGES[@]}" "${GAPSCAN_TEST_PACKAGES[@]}"
if [[ $mode == threads ]]; then
  dir=$GAPSCAN_ROOT/build/threads
  cmake -S "$GAPSCAN_ROOT" -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGAPSCAN_WERROR=ON \
    -DGAPSCAN_SANITIZE_THREAD=ON >/dev/null
  cmake --build "$dir" -j "$(nproc)" --target gapscan gapscan_tests gen_mwlog >&2
  export TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1
  cd "$dir"
  TZ=UTC LC_ALL=C ctest --output-on-failure -j "$(nproc)" \
    -R '^(The window queue|A full window queue|A producer that helps|Many workers|Draining the queue|The report is the same for any number of threads|Lines parsed on other threads|The periodicity test gives|A merge of partial scans|follow:)'
  exit
fi
if [[ $mode == sanitize ]]; then
  dir=$GAPSCAN_ROOT/build/sanitize
  gapscan_build "$dir" RelWithDebInfo all -DGAPSCAN_WERROR=ON -DGAPSCAN_SANITIZE=ON
  export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
else
  dir=$GAPSCAN_ROOT/build/release
  gapscan_build "$dir" Release all -DGAPSCAN_WERROR=ON
fi
cd "$dir"
TZ=UTC LC_ALL=C ctest --output-on-failure -j "$(nproc)"
