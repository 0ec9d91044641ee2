#!/usr/bin/env bash
# Run by test/e2e/secret-service.test.ts inside `dbus-run-session`: a private D-Bus session with
# gnome-keyring as the Secret Service. Usage: secret-service.sh <out-dir> <sched command...>
# The key is in <out-dir>/key (removed once stored); each step's stdout, stderr and exit code
# go to <out-dir>/<step>.out, .err and .rc. $BASE_URL is the sandbox's.
set -u
out=$1
shift
step() {
  local name=$1
  shift
  "$@" >"$out/$name.out" 2>"$out/$name.err"
  echo $? >"$out/$name.rc"
}
# The login keyring, created and unlocked with a password read from stdin.
printf %s 'keyring-password' | gnome-keyring-daemon --unlock --components=secrets >"$out/daemon.out"
secret-tool store --label='sched API key' service sched <"$out/key" || exit 10
rm -f "$out/key"
step login "$@" auth login --key-command 'secret-tool lookup service sched' \
  --base-url "$BASE_URL" --profile vault
step list "$@" types list --profile vault --json
step status "$@" auth status --profile vault --json
step missing "$@" auth login --key-command 'secret-tool lookup service missing' \
  --base-url "$BASE_URL" --profile other
# The keyring daemon started here ends with this session (it outlives the bus otherwise).
pid=$(dbus-send --session --dest=org.freedesktop.DBus --print-reply=literal /org/freedesktop/DBus \
  org.freedesktop.DBus.GetConnectionUnixProcessID string:org.freedesktop.secrets | awk '{print $2}')
[ -n "$pid" ] && kill "$pid"
exit 0
