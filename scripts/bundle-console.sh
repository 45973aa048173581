#!/usr/bin/env bash
# Bundles the built console Worker with wrangler's own bundler into .tmp/bundle (`wrangler deploy
# --dry-run`), what a deploy uploads. Made again only when missing or older than a file it bundles;
# a lock lets the end-to-end consoles and the Workers tests ask for it at once. Run after
# `remix vite:build`. Read by scripts/console-bundle.mjs.
set -euo pipefail
cd "$(dirname "$0")/.."
export WRANGLER_SEND_METRICS=false
mkdir -p .tmp
(
  flock 9
  if [ ! -f .tmp/bundle/server.js ] || [ -n "$(find build server.ts worker-background.ts wrangler.toml -type f -newer .tmp/bundle/server.js | head -1)" ]; then
    rm -rf .tmp/bundle && npx wrangler deploy --dry-run --outdir .tmp/bundle >/dev/null
  fi
) 9>.tmp/bundle.lock
