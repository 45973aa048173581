#!/usr/bin/env bash
# Rebuilds pkg/core.wasm from source and fails when it differs from the committed module.
set -euo pipefail
cd "$(dirname "$0")/.."
committed=$(mktemp)
trap 'rm -f "$committed"' EXIT
git show HEAD:core-wasm/pkg/core.wasm >"$committed" 2>/dev/null || cp pkg/core.wasm "$committed"
bash scripts/build.sh
if cmp -s "$committed" pkg/core.wasm; then
  echo "pkg/core.wasm is reproducible: the rebuild is identical"
else
  echo "pkg/core.wasm differs from a rebuild of the source: run npm run build:wasm and commit pkg/" >&2
  exit 1
fi
