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
  WORKER_URL="http://127.0.0.1:$PORT" MQTT_PORT=$MQTT_PORT node gateway/src/main.js &
  pids+=($!)
  sleep 2
  if [ -f gateway/sim/demo-boards.js ]; then
    node gateway/sim/demo-boards.js --url "mqtt://127.0.0.1:$MQTT_PORT" &
    pids+=($!)
  fi
fi

cat <<MSG

  Console:  http://127.0.0.1:$PORT   (admin API: /api/admin, OpenAPI: /api/openapi.json)
  Gateway:  mqtt://127.0.0.1:$MQTT_PORT
  Demo logins are printed above. Ctrl-C stops everything.

MSG
wait -n "${pids[@]}"
