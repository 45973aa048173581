#!/usr/bin/env bash
# Rebuilds core.wasm from source into a temporary file and fails when it differs from the committed
# pkg/core.wasm. The committed module is never overwritten.
set -euo pipefail
cd "$(dirname "$0")/.."
rebuilt=$(mktemp --suffix=.wasm)
trap 'rm -f "$rebuilt"' EXIT
bash scripts/build.sh "$rebuilt"
if cmp -s pkg/core.wasm "$rebuilt"; then
  echo "pkg/core.wasm is reproducible: the rebuild is identical"
else
  echo "pkg/core.wasm differs from a rebuild of the source: run npm run build:wasm and commit pkg/" >&2
  exit 1
fi
