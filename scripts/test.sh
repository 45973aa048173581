#!/usr/bin/env bash
# One command: install everything the tests need (npm packages, Debian's Chromium, Redis,
# Mosquitto, the Rust-to-WASM toolchain through the components' own scripts) and run every suite:
# the gates (console and gateway types, ESLint, Prettier, rustfmt), unit, Workers integration
# against D1, the access-window core, the gateway, Playwright end to end, and a deploy dry run.
set -uo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh

npm_install . || exit 1
npm_install gateway || exit 1 # its type check needs aedes' and Node's declarations

passed=0; failed=0; failures=()
suite() {
  local name=$1; shift
  echo; echo "=== $name"
  if "$@"; then passed=$((passed + 1)); else failed=$((failed + 1)); failures+=("$name"); fi
}

summary() {
  echo
  [ "$failed" -gt 0 ] && echo "Failed suites: ${failures[*]}"
  echo "suites: $passed passed, $failed failed"
  [ "$failed" -eq 0 ]
}

# Gates: each one fails `npm test` on its own. They need no build, so they come first.
suite "gate: console types (tsc --noEmit)" npx tsc --noEmit
suite "gate: gateway JSDoc types (tsc -p gateway)" npx tsc -p gateway
suite "gate: lint (eslint)" npx eslint .
suite "gate: format (prettier --check; fix with npm run format)" npx prettier --check --log-level=warn .
suite "gate: core format (cargo fmt --check)" core_fmt_check
[ "${1:-}" = "--gates" ] && { summary; exit; } # `npm run gates`: only these

apt_install chromium chromium || exit 1
build_console || exit 1

suite "console unit" npx vitest run -c vitest.unit.config.ts
suite "console workers integration (D1)" npx vitest run -c vitest.workers.config.ts
[ -f core-wasm/scripts/test.sh ] && suite "access-window core" bash core-wasm/scripts/test.sh
[ -f gateway/scripts/test.sh ] && suite "gateway" bash gateway/scripts/test.sh
# The gateway's durability test again, with the built console Worker and its D1 as the receiving end.
suite "gateway durability against the console Worker" env WORKER_END=tests/gateway/real-worker-end.mjs LOG_LEVEL=error \
  node --test --test-timeout=570000 gateway/test/durability.test.js
suite "end to end (Chromium)" npx playwright test
suite "deploy dry run" npx wrangler deploy --dry-run --outdir .tmp/deploy

summary
