#!/usr/bin/env bash
# The whole gateway test suite on a clean clone: Debian's redis-server and mosquitto (installed when
# missing), the gateway's own npm packages, then node's test runner. Everything listens on 127.0.0.1.
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
command -v redis-server >/dev/null || missing+=(redis-server)
command -v mosquitto >/dev/null && [ -x "$(command -v mosquitto)" ] || missing+=(mosquitto)
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing ${missing[*]}"
  if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi
# Debian's packages start system services; the tests run their own on free ports instead.
PATH="$PATH:/usr/sbin"

[ -d ../core-wasm/pkg ] || { echo "core-wasm/pkg is missing: the gateway decides access with it" >&2; exit 1; }
npm ci --prefix . --no-audit --no-fund --loglevel=error

LOG_LEVEL="${LOG_LEVEL:-error}" exec node --test --test-concurrency=1 --test-timeout=300000 test/*.test.js
