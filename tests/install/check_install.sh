#!/usr/bin/env bash
# cmake --install into a temporary prefix: the binary, the man page, bash completion and the
# catalog land where a Debian system looks for them, and the installed binary reads the
# catalog installed beside it without being told.
#   tests/install/check_install.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$1
source=$2
prefix=$(mktemp -d "${TMPDIR:-/tmp}/gapscan-install.XXXXXX")
trap 'rm -rf -- "$prefix"' EXIT

fail() {
    echo "check_install.sh: $*" >&2
    exit 1
}

cmake --install "$build" --prefix "$prefix" >/dev/null
for f in bin/gapscan share/man/man1/gapscan.1 share/bash-completion/completions/gapscan \
    share/gapscan/patterns/nagle_delack_noreply_pipeline.toml share/gapscan/patterns/presets/nginx-cache.toml; do
    [[ -f $prefix/$f ]] || fail "missing $f"
done
[[ ! -e $prefix/share/gapscan/patterns/examples ]] || fail "the example generators were installed"
causes=$(find "$prefix/share/gapscan/patterns" -maxdepth 1 -name '*.toml' | wc -l)
((causes >= 41)) || fail "only $causes causes installed"
bash -n "$prefix/share/bash-completion/completions/gapscan" || fail "the completion script does not parse"
man_out=$(MANWIDTH=80 man -l "$prefix/share/man/man1/gapscan.1" 2>/dev/null || groff -man -Tutf8 "$prefix/share/man/man1/gapscan.1" 2>/dev/null || true)
if [[ -n $man_out ]]; then
    grep -q -- "--fail-on" <<<"$man_out" || fail "the man page does not render with its options"
fi

# The installed binary: its own catalog, by default.
json=$("$prefix/bin/gapscan" --output json "$source/samples/memcached-nagle.log")
origin=$(python3 -c 'import json, sys; print(json.load(sys.stdin)["catalog"]["origin"])' <<<"$json")
[[ $origin == "$prefix/share/gapscan/patterns" ]] || fail "catalog read from '$origin', not the installed one"
first=$(python3 -c 'import json, sys; print(json.load(sys.stdin)["findings"][0]["cause"])' <<<"$json")
[[ $first == nagle_delack_noreply_pipeline ]] || fail "first cause $first"
"$prefix/bin/gapscan" causes nagle_delack_noreply_pipeline | grep -q "$prefix/share/gapscan/patterns" ||
    fail "gapscan causes does not read the installed catalog"
"$prefix/bin/gapscan" --version | grep -q '^gapscan ' || fail "--version"
echo "install: $causes causes, binary, man page and completion under $prefix"
