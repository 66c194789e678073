#!/usr/bin/env bash
# Installs what is missing (Debian packages), builds a release gapscan in build/release and
# runs it on a bundled sample: a log made by really running memcached with MediaWiki's
# client options (Nagle on, noreply background writes).
#   scripts/quickstart.sh [SAMPLE]
set -euo pipefail
GAPSCAN_ROOT=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=scripts/deps.sh
source "$GAPSCAN_ROOT/scripts/deps.sh"

gapscan_install "${GAPSCAN_BUILD_PACKAGES[@]}"
gapscan_build "$GAPSCAN_ROOT/build/release" Release gapscan
sample=${1:-$GAPSCAN_ROOT/samples/memcached-nagle.log}
echo "\$ build/release/gapscan ${sample#"$GAPSCAN_ROOT"/}" >&2
cd "$GAPSCAN_ROOT"
exec build/release/gapscan "${sample#"$GAPSCAN_ROOT"/}"
