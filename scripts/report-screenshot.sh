#!/usr/bin/env bash
# Renders the HTML report of samples/memcached-nagle.log and takes the screenshot that
# docs/reports.md shows (docs/images/report-html.png), with headless Chromium (Debian's chromium).
#
# usage: scripts/report-screenshot.sh [GAPSCAN]   (default: build/release/gapscan)
set -euo pipefail
cd "$(dirname "$0")/.."
gapscan=${1:-build/release/gapscan}
command -v chromium >/dev/null || { echo "chromium not found: apt-get install chromium" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$gapscan" --output html --report "$work/report.html" samples/memcached-nagle.log
mkdir -p docs/images
# The profile, the wall-time share and the first suspect's plots and evidence.
chromium --headless --no-sandbox --disable-gpu --no-first-run --hide-scrollbars --user-data-dir="$work/profile" \
  --window-size=1000,1500 --screenshot="$work/shot.png" "file://$work/report.html" 2>/dev/null
mv "$work/shot.png" docs/images/report-html.png
echo "docs/images/report-html.png"
