#!/usr/bin/env bash
# Serves the built console on local D1/R2 kept in STATE_DIR (default .wrangler/state), migrating
# and seeding it first. Extra arguments go to `wrangler dev` (e.g. --var IDLE_TIMEOUT_MS:5000).
# SMTP_PORT: the local mail sink's port a fresh seed points the demo mailer at (default 2525).
# SMS_PORT: the local text-message sink (scripts/sms-sink.mjs) the console's SMS_* vars name (default 2526).
# FROM_TEMPLATE=1 (the end-to-end servers): a new STATE_DIR starts as a copy of scripts/d1-template.sh's.
# SEED_NOW (epoch ms): the instant a fresh seed's dates are relative to (scripts/seed-now.ts); the
# end-to-end servers pass their shifted clock's.
# RUNTIME=miniflare (the end-to-end servers): Miniflare serves the bundled Worker instead of
# `wrangler dev` (scripts/serve-miniflare.mjs says why).
set -euo pipefail
cd "$(dirname "$0")/.."
export WRANGLER_SEND_METRICS=false CI=${CI:-true}
PORT=${PORT:-8787}
STATE_DIR=${STATE_DIR:-.wrangler/state}
SMTP_PORT=${SMTP_PORT:-2525}
SMS_PORT=${SMS_PORT:-2526}
# The text-message provider of local runs: the sink, with local-only credentials (production has none, so it fails closed).
SMS_VARS=(--var "SMS_API_URL:http://127.0.0.1:$SMS_PORT" --var SMS_ACCOUNT_SID:AClocal --var SMS_AUTH_TOKEN:local-only --var "SMS_FROM:+15550100000")
node scripts/credential-keys.mjs
if [ "${FROM_TEMPLATE:-}" = 1 ] && [ ! -d "$STATE_DIR" ]; then
  mkdir -p "$(dirname "$STATE_DIR")"
  cp -r "$(SMTP_PORT=$SMTP_PORT SEED_NOW=${SEED_NOW:-} bash scripts/d1-template.sh)" "$STATE_DIR"
else
  npx wrangler d1 migrations apply DB --local --persist-to "$STATE_DIR" >/dev/null
  PERSIST_TO="$STATE_DIR/v3" SMTP_PORT=$SMTP_PORT npx tsx scripts/seed-local.ts # seeds an empty database only
fi
# wrangler.toml is production's config: local serving opts into development (a later --var, such as
# the e2e servers' ENVIRONMENT:test, wins). Links in mail (reset, invitations) name the port actually served.
if [ "${RUNTIME:-}" = miniflare ]; then
  # The built Worker bundled once (wrangler's own bundler), served by Miniflare without wrangler dev's proxy.
  bash scripts/bundle-console.sh
  exec node scripts/serve-miniflare.mjs "$PORT" "$STATE_DIR" --var ENVIRONMENT:development --var "PUBLIC_ORIGIN:http://127.0.0.1:$PORT" "${SMS_VARS[@]}" "$@"
fi
exec npx wrangler dev --ip 127.0.0.1 --port "$PORT" --persist-to "$STATE_DIR" --show-interactive-dev-session=false \
  --var ENVIRONMENT:development --var "PUBLIC_ORIGIN:http://127.0.0.1:$PORT" "${SMS_VARS[@]}" "$@"
