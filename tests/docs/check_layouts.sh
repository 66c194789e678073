#!/usr/bin/env bash
# docs/formats.md tabulates every format and generic layout `gapscan formats` lists: each name
# printed there (a line at column 0 followed by its sample) must start a row of a table there.
# Usage: check_layouts.sh GAPSCAN SOURCE_DIR
set -euo pipefail
gapscan=$1
doc=$2/docs/formats.md
missing=0
names=$("$gapscan" formats | awk '/^[^ ]/ { name = $0 } /^  sample: / { if (name != "") print name; name = "" }')
[[ -n $names ]] || { echo "check_layouts: gapscan formats listed nothing" >&2; exit 1; }
while IFS= read -r name; do
  if ! grep -qF -- "| \`$name\` |" "$doc"; then
    echo "check_layouts: docs/formats.md has no table row for '$name'" >&2
    missing=$((missing + 1))
  fi
done <<< "$names"
count=$(wc -l <<< "$names")
echo "check_layouts: $count formats, layouts and presets, $missing missing from docs/formats.md"
[[ $missing -eq 0 ]]
