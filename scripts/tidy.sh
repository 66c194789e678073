#!/usr/bin/env bash
# Runs clang-tidy (the short list in .clang-tidy, warnings as errors) on src/.
#   scripts/tidy.sh BUILD_DIR     (a configured build with compile_commands.json)
set -euo pipefail
root=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/.." && pwd)
build=${1:-$root/build/release}
cd "$root"
mapfile -t files < <(git ls-files 'src/*.cpp')
printf '%s\n' "${files[@]}" | xargs -P "$(nproc)" -n 4 clang-tidy -p "$build" --quiet 2>/dev/null
echo "tidy: ${#files[@]} files clean"
