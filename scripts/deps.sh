# shellcheck shell=bash
# Sourced by the other scripts: installs the Debian 12 packages gapscan needs, only those
# that are missing. Idempotent; when everything is installed it returns in well under a
# second without touching apt. Needs root or sudo only when something is missing.

# Build: compiler, CMake and the libraries (design.md names each one's job).
GAPSCAN_BUILD_PACKAGES=(
  g++ make cmake pkg-config
  libre2-dev libboost-program-options-dev libeigen3-dev libfmt-dev
  libsimdjson-dev libtomlplusplus-dev nlohmann-json3-dev
  zlib1g-dev libzstd-dev libbz2-dev liblzma-dev libisal-dev catch2
  libhowardhinnant-date-dev
)
# Tests: the real memcached and Redis servers with their PHP extensions for the live tests;
# tzdata for the --tz tests; python3 for the seed incidents' log generators (tests/seed).
# iproute2 (ip, nstat), nftables, dnsmasq-base and curl for the network-fault tests (tests/netfaults);
# jq for the documentation's command lines (tests/docs/check_commands.sh); python3-markdown to
# render the Markdown report in its test (tests/report/check_outputs.py); chromium to load the HTML
# report headless in its test (tests/report/check_html_chromium.py). parallel, rsync and openssh
# for the GNU parallel recipe's test, which starts its own sshd on a private port of 127.0.0.1
# (Debian also enables the system's sshd when openssh-server is installed: `systemctl disable
# --now ssh` if that machine should not have one); python3-distributed for the Dask recipe's test
# (tests/distributed). haproxy, nginx, mariadb-server and python3-pymysql for the network-fault
# tests' live servers (tests/netfaults: haproxy_*.sh, nginx_upstream.sh, mariadb_lock.sh), which
# start private instances with their own config files; the system services these packages
# enable and start on install are stopped and disabled when gapscan_install installs them.
GAPSCAN_TEST_PACKAGES=(memcached redis-server php-cli php-memcached php-redis procps tzdata python3 iproute2 nftables dnsmasq-base curl jq python3-markdown chromium
  parallel rsync openssh-client openssh-server python3-distributed
  haproxy nginx mariadb-server python3-pymysql)
# Installed for the tests' private instances only: the system service each starts is not wanted.
GAPSCAN_QUIET_SERVICES=(haproxy:haproxy nginx:nginx mariadb-server:mariadb)
# Fuzzing (scripts/fuzz.sh): clang with libFuzzer and the sanitizers' runtime; zstd for seeds.
GAPSCAN_FUZZ_PACKAGES=(clang libclang-rt-14-dev python3 zstd)
# The benchmark's baselines and peers (bench/run.sh): mawk, gawk, pandas, GNU time, compressors.
GAPSCAN_BENCH_PACKAGES=(mawk gawk python3-pandas time gzip zstd)
# CI extras: format and lint checks; python3 for the corpus scorer (bench/score_corpus.sh);
# dpkg-dev for cpack's dependency list (dpkg-shlibdeps) and file to read the package.
GAPSCAN_CI_PACKAGES=(clang-format clang-tidy python3 dpkg-dev file)

gapscan_missing_packages() {
  local package
  for package in "$@"; do
    if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q '^install ok installed$'; then
      printf '%s\n' "$package"
    fi
  done
}

# gapscan_install PACKAGE... : installs the missing ones with apt-get.
gapscan_install() {
  local missing
  mapfile -t missing < <(gapscan_missing_packages "$@")
  if [[ ${#missing[@]} -eq 0 ]]; then
    return 0
  fi
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "gapscan: these Debian packages are missing and apt-get is not available: ${missing[*]}" >&2
    return 1
  fi
  local -a run=()
  if [[ $(id -u) -ne 0 ]]; then
    if ! command -v sudo >/dev/null 2>&1; then
      echo "gapscan: run as root or install sudo; missing packages: ${missing[*]}" >&2
      return 1
    fi
    run=(sudo)
  fi
  echo "gapscan: installing ${missing[*]}" >&2
  "${run[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q >/dev/null
  "${run[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null || return
  # the servers installed just now for the tests' private instances: their system services
  # stopped and disabled (an installation made before, by anyone else, is left alone)
  local entry package unit
  for entry in "${GAPSCAN_QUIET_SERVICES[@]}"; do
    package=${entry%%:*} unit=${entry#*:}
    [[ " ${missing[*]} " == *" $package "* ]] || continue
    if [[ -d /run/systemd/system ]]; then
      "${run[@]}" systemctl disable --now "$unit" >/dev/null 2>&1
    else
      "${run[@]}" systemctl disable "$unit" >/dev/null 2>&1 || "${run[@]}" update-rc.d "$unit" disable >/dev/null 2>&1
      [[ -x /etc/init.d/$unit ]] && "${run[@]}" /etc/init.d/"$unit" stop >/dev/null 2>&1
    fi
    echo "gapscan: stopped and disabled the $unit service that $package installed" >&2
  done
  return 0
}

# gapscan_build DIR TYPE TARGET [CMAKE ARGS...] : configures and builds TARGET (all: every
# target) into DIR. Progress goes to stderr, so that stdout carries only what gapscan prints.
gapscan_build() {
  local dir=$1 type=$2 target=$3
  shift 3
  cmake -S "$GAPSCAN_ROOT" -B "$dir" -DCMAKE_BUILD_TYPE="$type" "$@" >/dev/null
  cmake --build "$dir" -j "$(nproc)" --target "$target" >&2
}
