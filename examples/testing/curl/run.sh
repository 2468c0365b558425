#!/usr/bin/env bash
# The HTTP controls with nothing but curl (docs/testing.md#http-controls): what a bot written in
# Python, Go or Rust does from its own test suite. Starts a platform with the examples' world on a
# free port, freezes and moves its clock, makes a route fail once, reads the log, resets to the
# world, and stops it.
#   GUILDHALL="npx guildhall" bash run.sh        (the default; in this repository:
#   GUILDHALL="node packages/server/bundle/guildhall.js" bash examples/testing/curl/run.sh)
set -euo pipefail
GUILDHALL=${GUILDHALL:-npx guildhall}
DATA=$(mktemp -d)
PID=
stop() {
  [ -n "$PID" ] && kill "$PID" 2>/dev/null && wait "$PID" 2>/dev/null
  rm -rf "$DATA"
}
trap stop EXIT

# Port 0: the platform picks a free port and prints it in its banner.
WORLD=$(cd "$(dirname "$0")/.." && pwd)/world.json
# The log exists before the platform starts: the loop below reads it at once, and a busy machine
# may not have run the background command's redirection yet (a sed of no file ends the script).
: >"$DATA/out.log"
$GUILDHALL start --world "$WORLD" --port 0 --data-dir "$DATA" --log-level warn >>"$DATA/out.log" 2>&1 &
PID=$!
BASE=
for _ in $(seq 200); do
  BASE=$(sed -n 's|.*API: *\(http://[^ ]*\)/api/v10.*|\1|p' "$DATA/out.log")
  [ -n "$BASE" ] && curl -fs "$BASE/readyz" >/dev/null && break
  sleep 0.1
done
[ -n "$BASE" ] || { echo "the platform did not start:"; cat "$DATA/out.log"; exit 1; }
CONTROL=$BASE/_guildhall/v1
JSON=(-H 'Content-Type: application/json')
# The world's ids and tokens, by its names: the first bot token is the greeter's.
BOT=$(sed -n 's/.*"botToken": *"\([^"]*\)".*/\1/p' "$DATA/world.json" | head -n 1)

echo "clock:   $(curl -fs "$CONTROL/clock")"
curl -fs -X POST "$CONTROL/clock/freeze" >/dev/null
echo "advance: $(curl -fs -X POST "$CONTROL/clock/advance" "${JSON[@]}" -d '{"by":"15m"}')"

# The next GET /gateway/bot answers 503, once.
curl -sS --fail-with-body -X POST "$CONTROL/faults" "${JSON[@]}" \
  -d '{"kind":"http","method":"GET","path":"/gateway/bot","type":"serverError","status":503,"times":1}' >/dev/null
gateway_bot() { curl -s -o /dev/null -w '%{http_code}' "$BASE/api/v10/gateway/bot" -H "Authorization: Bot $BOT"; }
first=$(gateway_bot)
second=$(gateway_bot)
echo "GET /gateway/bot: $first, then $second"
[ "$first" = 503 ] && [ "$second" = 200 ] || { echo "expected 503 then 200"; exit 1; }

echo "log:     $(curl -fs "$CONTROL/log?kind=http&limit=2")"
# Back to the world as loaded: its data, and the faults, clock and log of this run gone.
curl -fs -X POST "$CONTROL/reset" >/dev/null
echo "after reset: $(curl -fs "$CONTROL/clock")"
echo "curl example: ok"
