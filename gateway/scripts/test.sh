#!/usr/bin/env bash
# The whole gateway test suite on a clean clone: Debian's redis-server and mosquitto (installed when
# missing), the gateway's own npm packages, then node's test runner. Everything listens on 127.0.0.1.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/ensure-services.sh
[ -f ../core-wasm/pkg/node.js ] || { echo "core-wasm/pkg/node.js is missing: the gateway decides access with it" >&2; exit 1; }
[ -d node_modules ] || npm ci --no-audit --no-fund --loglevel=error # scripts/test.sh installs it once

LOG_LEVEL="${LOG_LEVEL:-error}" exec node --test --test-concurrency=1 --test-timeout=300000 test/*.test.js
