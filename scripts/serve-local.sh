#!/usr/bin/env bash
# Serves the built console on local D1/R2 kept in STATE_DIR (default .wrangler/state), migrating
# and seeding it first. Extra arguments go to `wrangler dev` (e.g. --var IDLE_TIMEOUT_MS:5000).
# SMTP_PORT: the local mail sink's port a fresh seed points the demo mailer at (default 2525).
# FROM_TEMPLATE=1 (the end-to-end servers): a new STATE_DIR starts as a copy of a seeded template.
set -euo pipefail
cd "$(dirname "$0")/.."
export WRANGLER_SEND_METRICS=false CI=${CI:-true}
PORT=${PORT:-8787}
STATE_DIR=${STATE_DIR:-.wrangler/state}
SMTP_PORT=${SMTP_PORT:-2525}
node scripts/credential-keys.mjs

migrate_and_seed() { # migrate_and_seed <state dir>: applies new migrations; seeds only an empty database
  npx wrangler d1 migrations apply DB --local --persist-to "$1" >/dev/null
  PERSIST_TO="$1/v3" SMTP_PORT="$SMTP_PORT" npx tsx scripts/seed-local.ts
}

if [ "${FROM_TEMPLATE:-}" != 1 ] || [ -d "$STATE_DIR" ]; then
  migrate_and_seed "$STATE_DIR"
else
  # The template is made once per version of the migrations and the seed (and per mail port, which
  # the seed writes): migrating and seeding take a minute on a loaded machine, a copy under a
  # second. The lock lets consoles started together make it once.
  templates=.tmp/d1-templates
  key=$(cat db/migrations/*.sql db/seed/*.ts scripts/seed-local.ts | sha1sum | cut -c1-12)
  template="$templates/$key-smtp$SMTP_PORT"
  mkdir -p "$templates"
  (
    flock 9
    if [ ! -d "$template" ]; then
      rm -rf "$template.partial"
      migrate_and_seed "$template.partial"
      mv "$template.partial" "$template"
    fi
  ) 9>"$templates/lock"
  mkdir -p "$(dirname "$STATE_DIR")"
  cp -r "$template" "$STATE_DIR"
fi
# Links in mail (reset, invitations) name the port actually served.
exec npx wrangler dev --ip 127.0.0.1 --port "$PORT" --persist-to "$STATE_DIR" --show-interactive-dev-session=false --var "PUBLIC_ORIGIN:http://127.0.0.1:$PORT" "$@"
