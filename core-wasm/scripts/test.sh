#!/usr/bin/env bash
# The whole core test suite: reproducible WASM build, native Rust tests, then the Node tests
# (package API, CLI, differential against Intl and zdump, Chromium when installed) on the committed pkg/.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== reproducible build"
bash scripts/check-reproducible.sh

echo "== native tests"
if command -v rustup >/dev/null && rustup which cargo >/dev/null 2>&1; then
  cargo test --locked
else
  /usr/bin/cargo test --locked # Debian's toolchain, installed by the build above
fi

echo "== node tests"
[ -d node_modules ] || npm ci --no-audit --no-fund --loglevel=error # playwright-core for the browser test; scripts/test.sh installs it once
node --test tests/node/
