#!/usr/bin/env bash
# A CI job's webhook check, as a user would write it: start a listener that stops by itself,
# wait for its first line, trigger deliveries in the sandbox, then read what arrived.
# Usage: ci-wait.sh <port>   (SCHED_BASE_URL and SCHED_API_KEY point at a sandbox; sched on PATH)
set -euo pipefail
port=$1
out=$(mktemp -d)
listener=
trap '[ -n "$listener" ] && kill "$listener" 2>/dev/null; rm -rf "$out"' EXIT

sched webhooks listen --port "$port" --json --count 2 --max-time 20 \
  --register "http://127.0.0.1:$port/hook" --record "$out/deliveries.ndjson" \
  >"$out/stdout" 2>"$out/stderr" &
listener=$!

# Ready once the first line says where it listens; if it ended instead, say why.
until head -n 1 "$out/stdout" | grep -q '^{"listening":'; do
  if ! kill -0 "$listener" 2>/dev/null; then
    cat "$out/stderr" >&2
    wait "$listener" && exit 1 || exit $?
  fi
  sleep 0.05
done

url=$(sched link create intro-call)
meeting=$(sched sandbox book "$url" --name "Ada Lovelace" --email ada@example.com -q)
sched sandbox cancel "$meeting" >/dev/null

status=0
wait "$listener" || status=$?
listener=
head -n 1 "$out/stdout"
tail -n +2 "$out/stdout"
echo "listen exit $status"
echo "recorded $(wc -l <"$out/deliveries.ndjson")"
cat "$out/stderr" >&2
