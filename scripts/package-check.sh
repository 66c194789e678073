#!/usr/bin/env bash
# Makes the Debian package of a release build with cpack, installs it with dpkg, runs the
# installed gapscan on the bundled sample (it must read the catalog installed beside it and
# name the sample's cause), then removes the package. Needs root or sudo for dpkg.
#   scripts/package-check.sh BUILD_DIR
set -euo pipefail
root=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/.." && pwd)
build=$(cd -- "${1:-$root/build/release}" && pwd)
# shellcheck source=scripts/deps.sh
GAPSCAN_ROOT=$root source "$root/scripts/deps.sh"
gapscan_install dpkg-dev file

as_root() {
  if [[ $(id -u) -eq 0 ]]; then "$@"; else sudo "$@"; fi
}

if dpkg-query -W -f='${Status}' gapscan 2>/dev/null | grep -q '^install ok installed$'; then
  echo "package-check.sh: a gapscan package is already installed; not touching it" >&2
  exit 1
fi
rm -f "$build"/gapscan_*.deb
(cd "$build" && cpack -G DEB >/dev/null)
deb=$(ls "$build"/gapscan_*.deb)
echo "built $(basename "$deb"):"
dpkg-deb --field "$deb" Package Version Architecture Depends | sed 's/^/  /'
dpkg-deb --field "$deb" Depends | grep -q libre2 || { echo "package-check.sh: no library dependencies" >&2; exit 1; }

removed=0
remove() {
  if [[ $removed -eq 0 ]]; then as_root dpkg -r gapscan >/dev/null; removed=1; fi
}
trap remove EXIT
as_root dpkg -i "$deb" >/dev/null
installed=$(command -v gapscan)
[[ $installed == /usr/bin/gapscan ]] || { echo "package-check.sh: gapscan found at '$installed'" >&2; exit 1; }
/usr/bin/gapscan --version
report=$(/usr/bin/gapscan "$root/samples/memcached-nagle.log")
grep -q 'nagle_delack_noreply_pipeline' <<<"$report" || { echo "package-check.sh: wrong report" >&2; exit 1; }
grep -q 'Catalog    /usr/share/gapscan/patterns' <<<"$report" ||
  { echo "package-check.sh: the installed catalog was not read" >&2; exit 1; }
[[ -f /usr/share/man/man1/gapscan.1.gz || -f /usr/share/man/man1/gapscan.1 ]] ||
  { echo "package-check.sh: no man page" >&2; exit 1; }
[[ -f /usr/share/bash-completion/completions/gapscan ]] || { echo "package-check.sh: no completion" >&2; exit 1; }
remove
[[ ! -e /usr/bin/gapscan ]] || { echo "package-check.sh: /usr/bin/gapscan left after dpkg -r" >&2; exit 1; }
echo "package-check: installed, ran on samples/memcached-nagle.log, removed"
