#!/usr/bin/env bash
# One command: install, migrate and seed local D1, build, and run the console, the gateway and a
# few simulated boards on this machine. Ctrl-C stops everything.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh

npm_install .
npm_install gateway
build_console

PORT=${PORT:-8787}
MQTT_PORT=${MQTT_PORT:-1883}
export GATEWAY_SECRET=${GATEWAY_SECRET:-local-gateway-secret}
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; }
trap cleanup EXIT INT TERM

PORT=$PORT bash scripts/serve-local.sh &
pids+=($!)
for _ in $(seq 1 90); do curl -fs -o /dev/null "http://127.0.0.1:$PORT/login" && break; sleep 1; done

if [ -f gateway/src/main.js ]; then
  mkdir -p gateway/data
  WORKER_URL="http://127.0.0.1:$PORT" MQTT_PORT=$MQTT_PORT node gateway/src/main.js &
  pids+=($!)
  sleep 2
  # Three simulated ACME boards (device ids 1-3) that report a door event and stay connected.
  for id in 1 2 3; do
    node gateway/sim/board.js --id "$id" --password "Board#Demo2026" --url "mqtt://127.0.0.1:$MQTT_PORT" \
      --event door.opened --listen 86400 > "gateway/data/board-$id.log" 2>&1 &
    pids+=($!)
  done
fi

cat <<MSG

  Console:  http://127.0.0.1:$PORT   (admin API: /api/admin, OpenAPI: /api/openapi.json)
  Gateway:  mqtt://127.0.0.1:$MQTT_PORT
  Demo logins are printed above. Ctrl-C stops everything.

MSG
wait -n "${pids[@]}"
