-- The alert engine (docs/decisions/0025-alert-engine.md, 0026-alert-digest.md). Written by hand;
-- the drizzle meta snapshots are not regenerated for it.

-- How far the engine has read activity_logs (one row). A run moves it with a compare-and-set that
-- writes -1 when another run moved it first: the CHECK then rolls that run's batch back. It is
-- created on the first run at the newest id then, so activity written before alerts existed (seeds,
-- imports) never mails anybody.
CREATE TABLE alert_cursor (
  id integer PRIMARY KEY NOT NULL CHECK (id = 1),
  last_activity_id integer NOT NULL CHECK (last_activity_id >= 0),
  updated_at integer NOT NULL
);
--> statement-breakpoint
-- One row per alert and activity it matched: the unique key makes a match, and its mail, happen once
-- however often the activity is read again. state: 'sent' (mailed on its own or opened a digest),
-- 'held' (waiting for the digest), 'digested' (listed in a digest that went out).
CREATE TABLE alert_matches (
  id integer PRIMARY KEY AUTOINCREMENT NOT NULL,
  alert_id integer NOT NULL,
  company_id integer NOT NULL,
  activity_id integer NOT NULL,
  state text NOT NULL,
  matched_at integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX alert_matches_alert_activity_uq ON alert_matches (alert_id, activity_id);
--> statement-breakpoint
CREATE INDEX alert_matches_company_idx ON alert_matches (company_id, matched_at);
--> statement-breakpoint
CREATE INDEX alert_matches_held_idx ON alert_matches (state, alert_id);
--> statement-breakpoint
-- When the alert last mailed: inside the digest window after it, further matches are held.
ALTER TABLE alerts ADD COLUMN last_mail_at integer;
--> statement-breakpoint
-- A mail queued by the engine carries a key naming what it is for (alert, activity or digest,
-- recipient); the unique index turns a second queueing of the same mail into nothing.
ALTER TABLE mail_outbox ADD COLUMN dedupe_key text;
--> statement-breakpoint
CREATE UNIQUE INDEX mail_outbox_dedupe_uq ON mail_outbox (dedupe_key);
