-- API keys for machines (docs/decisions/0075-api-keys-and-rate-limits.md). Written by hand.
-- A key acts for its company with the rights it was given, never more than its creator holds when it is
-- used. The secret is shown once; `secret_hash` is its keyed hash (app/utils/secret-hash.server.ts).
CREATE TABLE api_keys (
  id integer PRIMARY KEY AUTOINCREMENT NOT NULL,
  company_id integer NOT NULL,
  name text NOT NULL,
  created_by_user_id integer NOT NULL,
  -- Public and random: the key reads `kla_<prefix>_<secret>`, the prefix finds the row, the list shows it.
  prefix text NOT NULL,
  secret_hash text NOT NULL,
  -- JSON array of module keys (app/utils/permissions.ts MODULES); view is implied.
  modules_json text DEFAULT '[]' NOT NULL,
  can_add integer DEFAULT false NOT NULL,
  can_modify integer DEFAULT false NOT NULL,
  can_delete integer DEFAULT false NOT NULL,
  expires_at integer,
  revoked_at integer,
  -- Written at most once a minute per key (LAST_USE_STEP_MS), not on every call.
  last_used_at integer,
  created_at integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE INDEX api_keys_company_idx ON api_keys (company_id, created_at);
--> statement-breakpoint
CREATE UNIQUE INDEX api_keys_prefix_uq ON api_keys (prefix);
--> statement-breakpoint
INSERT INTO activity_types (name, type, alert_conditions)
  SELECT 'API Key Created', 'Admin', '100' WHERE NOT EXISTS (SELECT 1 FROM activity_types WHERE name = 'API Key Created');
--> statement-breakpoint
INSERT INTO activity_types (name, type, alert_conditions)
  SELECT 'API Key Revoked', 'Admin', '100' WHERE NOT EXISTS (SELECT 1 FROM activity_types WHERE name = 'API Key Revoked');
