#!/usr/bin/env bash
# One command: install everything the tests need (npm packages, Debian's Chromium, Redis,
# Mosquitto, the Rust-to-WASM toolchain through the components' own scripts) and run every suite:
# unit, Workers integration against D1, the access-window core, the gateway, Playwright end to end,
# and a deploy dry run.
set -uo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh

npm_install . || exit 1
apt_install chromium chromium || exit 1
build_console || exit 1

passed=0; failed=0; failures=()
suite() {
  local name=$1; shift
  echo; echo "=== $name"
  if "$@"; then passed=$((passed + 1)); else failed=$((failed + 1)); failures+=("$name"); fi
}

suite "console unit" npx vitest run -c vitest.unit.config.ts
suite "console workers integration (D1)" npx vitest run -c vitest.workers.config.ts
[ -f core-wasm/scripts/test.sh ] && suite "access-window core" bash core-wasm/scripts/test.sh
[ -f gateway/scripts/test.sh ] && suite "gateway" bash gateway/scripts/test.sh
# The gateway's durability test again, with the built console Worker and its D1 as the receiving end.
suite "gateway durability against the console Worker" env WORKER_END=tests/gateway/real-worker-end.mjs LOG_LEVEL=error \
  node --test --test-timeout=570000 gateway/test/durability.test.js
suite "end to end (Chromium)" npx playwright test
suite "deploy dry run" npx wrangler deploy --dry-run --outdir .tmp/deploy

echo
[ "$failed" -gt 0 ] && echo "Failed suites: ${failures[*]}"
echo "suites: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
