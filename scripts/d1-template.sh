#!/usr/bin/env bash
# Prints the path of a migrated and seeded local D1/R2 state, making it first when missing. It is
# made once per version of what makes it (the migrations and the seed, the app code the seed
# imports, the D1 binding, the locked packages), of the seed's settings (GATEWAY_SECRET, SMTP_PORT)
# and per seed instant (SEED_NOW, epoch ms; default the start of today, UTC: decision 0064), so a
# console shifted to another day gets data seeded relative to its own clock. The consoles tests start
# copy it, since migrating and seeding take a minute on a loaded machine and a copy under a second;
# the migrated state is kept apart and shared by every seed instant and seed setting. A lock per state
# lets runs started together make it once.
set -euo pipefail
cd "$(dirname "$0")/.."
export WRANGLER_SEND_METRICS=false CI=${CI:-true}
# The start of today (UTC), as seedInstant in db/seed/clock.ts.
SEED_NOW=${SEED_NOW:-$(($(date -u +%s) / 86400 * 86400000))}
templates=.tmp/d1-templates
hash() { sort -z | xargs -0 sha1sum | sha1sum | cut -c1-16; }
# The migrated state depends on the migrations and wrangler alone; the seeded one on everything else too.
migrated=$templates/$(find db/migrations wrangler.toml package-lock.json -type f -print0 | hash)-migrated
key=$({
  find db app scripts/seed-local.ts scripts/seed-now.ts wrangler.toml package-lock.json -type f -print0 | sort -z | xargs -0 sha1sum
  echo "GATEWAY_SECRET=${GATEWAY_SECRET:-} SMTP_PORT=${SMTP_PORT:-}"
} | sha1sum | cut -c1-16)
template=$templates/$key-$SEED_NOW
mkdir -p "$templates"
# One lock per state made: the consoles of a run seed their instants side by side.
(
  flock 9
  if [ ! -d "$migrated" ]; then
    rm -rf "$migrated.partial"
    npx wrangler d1 migrations apply DB --local --persist-to "$migrated.partial" >/dev/null
    mv "$migrated.partial" "$migrated"
  fi
) 9>"$migrated.lock"
(
  flock 9
  if [ ! -d "$template" ]; then
    rm -rf "$template.partial"
    cp -r "$migrated" "$template.partial"
    SEED_NOW=$SEED_NOW PERSIST_TO="$template.partial/v3" npx tsx scripts/seed-local.ts >/dev/null
    mv "$template.partial" "$template"
  fi
) 9>"$template.lock"
# Versions nobody has made for a day are left from older checkouts or days.
find "$templates" -mindepth 1 -maxdepth 1 -mmin +1440 -exec rm -rf {} +
echo "$PWD/$template"
