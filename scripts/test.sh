#!/usr/bin/env bash
# One command: install everything the tests need (npm packages, Debian's Chromium, Redis,
# Mosquitto, the Rust-to-WASM toolchain through the components' own scripts) and run every suite:
# the gates (console and gateway types, ESLint, Prettier, rustfmt), unit, Workers integration
# against D1, the access-window core, the gateway, the door-path differential test, Playwright end to
# end (at the real time and at two fixed instants), the start script's port checks, and a deploy dry run.
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
# Again with the Worker's clock on the Sunday night Europe/Madrid springs forward, months after the
# demo data's dates (docs/decisions/0018-test-clock.md).
suite "console workers integration at Sun 2027-03-28 01:30 Europe/Madrid" env WORKERS_NOW=2027-03-28T01:30:00+01:00 \
  npx vitest run -c vitest.workers.config.ts
[ -f core-wasm/scripts/test.sh ] && suite "access-window core" bash core-wasm/scripts/test.sh
[ -f gateway/scripts/test.sh ] && suite "gateway" bash gateway/scripts/test.sh
# The gateway's durability test again, with the built console Worker and its D1 as the receiving end.
suite "gateway durability against the console Worker" env WORKER_END=tests/gateway/real-worker-end.mjs LOG_LEVEL=error \
  node --test --test-timeout=570000 gateway/test/durability.test.js
# The console and the doors never disagree: random admin changes (seeded; DIFF_SEED and DIFF_OPS
# reproduce a run), a gateway replica following the real feed, every decision compared after each sync.
suite "door path: console vs gateway decisions (2,000 random changes)" env DIFF_OPS=2000 \
  node --test --test-timeout=1500000 tests/door-path/differential.test.mjs
# End to end three times: at the real time, then as if it were two fixed instants (the Worker's clock
# and the browser's, see docs/decisions/0018-test-clock.md): a Monday inside working hours, and the
# Sunday night Europe/Madrid springs forward (02:00 becomes 03:00 half an hour into the run). Each run
# picks its own free ports. Retries are off (E2E_RETRIES is a local opt-in only).
suite "end to end (Chromium), real time" npx playwright test
suite "end to end at Mon 2026-11-23 17:20 Europe/Madrid" env E2E_NOW=2026-11-23T17:20:00+01:00 npx playwright test
suite "end to end at Sun 2027-03-28 01:30 Europe/Madrid (DST)" env E2E_NOW=2027-03-28T01:30:00+01:00 npx playwright test
suite "npm start: busy ports" node --test tests/scripts/start.test.mjs
suite "deploy dry run" npx wrangler deploy --dry-run --outdir .tmp/deploy

summary
