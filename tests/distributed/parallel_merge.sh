#!/usr/bin/env bash
# The GNU parallel recipe of docs/distributed.md, run for real over ssh to this machine: a private
# sshd on 127.0.0.1 (its own host key, client key and port; stopped by its pid at the end),
# `parallel --sshlogin ... --transferfile {} --return {/.}.gsp --cleanup` running one partial scan
# per log in a scratch work folder, then `gapscan merge` of the partials in the order of the logs.
# The merged report must be byte-for-byte the report of one scan over the same logs.
#
# Usage: parallel_merge.sh GAPSCAN LOG...   (exit 0: identical; 1: different; 2: could not run)
set -euo pipefail

gapscan=$1
shift
for tool in parallel rsync ssh ssh-keygen /usr/sbin/sshd; do
  command -v "$tool" >/dev/null || { echo "parallel_merge: $tool is missing (scripts/deps.sh installs it)" >&2; exit 2; }
done

scratch=$(mktemp -d /tmp/gapscan-parallel.XXXXXX)
sshd_pid=""
cleanup() {
  if [[ -n $sshd_pid ]]; then kill "$sshd_pid" 2>/dev/null || true; fi
  rm -rf "$scratch"
}
trap cleanup EXIT

# The logs, by relative name in one folder: what --transferfile sends and what the report names.
mkdir -p "$scratch/logs" "$scratch/work" "$scratch/ssh"
names=()
for log in "$@"; do
  name=$(basename "$log")
  cp "$log" "$scratch/logs/$name"
  names+=("$name")
done

# A private sshd for this user on 127.0.0.1.
keys=$scratch/ssh
ssh-keygen -q -t ed25519 -N '' -f "$keys/host_key"
ssh-keygen -q -t ed25519 -N '' -f "$keys/client_key"
cp "$keys/client_key.pub" "$keys/authorized_keys"
chmod 600 "$keys/authorized_keys"
if [[ $(id -u) -eq 0 ]]; then mkdir -p /run/sshd; fi
for attempt in 1 2 3 4 5; do
  port=$((20000 + RANDOM % 20000))
  cat >"$keys/sshd_config" <<CONFIG
Port $port
ListenAddress 127.0.0.1
HostKey $keys/host_key
AuthorizedKeysFile $keys/authorized_keys
PidFile $keys/sshd.pid
StrictModes no
UsePAM no
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin prohibit-password
CONFIG
  rm -f "$keys/sshd.pid"
  /usr/sbin/sshd -f "$keys/sshd_config" -E "$keys/sshd.log" || true
  for _ in $(seq 50); do [[ -s $keys/sshd.pid ]] && break; sleep 0.1; done
  if [[ -s $keys/sshd.pid ]]; then
    sshd_pid=$(cat "$keys/sshd.pid")
    break
  fi
done
if [[ -z $sshd_pid ]]; then
  echo "parallel_merge: sshd did not start:" >&2
  cat "$keys/sshd.log" >&2 || true
  exit 2
fi
ssh_command="ssh -p $port -i $keys/client_key -o BatchMode=yes -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR"
for _ in $(seq 50); do
  $ssh_command 127.0.0.1 true 2>/dev/null && break
  sleep 0.2
done

# The recipe: one partial per log, made on the "remote" host in its work folder, returned here.
cd "$scratch/logs"
printf '%s\n' "${names[@]}" |
  parallel --ssh "$ssh_command" --sshlogin 2/127.0.0.1 --workdir "$scratch/work" \
    --transferfile {} --return {/.}.gsp --cleanup \
    "$gapscan" scan -q -j 1 --partial {/.}.gsp {}

partials=()
for name in "${names[@]}"; do
  partial="${name%.*}.gsp"
  [[ -s $partial ]] || { echo "parallel_merge: $partial did not come back" >&2; exit 1; }
  partials+=("$partial")
done
if [[ -d $scratch/work && -n $(ls -A "$scratch/work") ]]; then
  echo "parallel_merge: --cleanup left files in the work folder: $(ls "$scratch/work")" >&2
  exit 1
fi

"$gapscan" merge -q --output json "${partials[@]}" >"$scratch/merged.json"
"$gapscan" scan -q --output json "${names[@]}" >"$scratch/one.json"
if cmp -s "$scratch/merged.json" "$scratch/one.json"; then
  echo "parallel_merge: ${#names[@]} partials made over ssh merge into the report of one scan"
  exit 0
fi
echo "parallel_merge: the merged report differs from one scan's" >&2
diff <(tr ',' '\n' <"$scratch/one.json") <(tr ',' '\n' <"$scratch/merged.json") | head -20 >&2
exit 1
