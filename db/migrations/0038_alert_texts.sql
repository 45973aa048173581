-- Alerts by text message (docs/decisions/0073-alerts-by-text-message.md). Written by hand.

-- The company allows alert recipients to be texted (off until an admin turns it on).
ALTER TABLE company_settings ADD COLUMN alert_texts integer NOT NULL DEFAULT 0;
--> statement-breakpoint
-- How a recipient hears of a firing; typed addresses are always 'email' (only users have a phone).
ALTER TABLE alert_recipients ADD COLUMN channel text NOT NULL DEFAULT 'email' CHECK (channel IN ('email', 'text', 'both'));
--> statement-breakpoint
-- Texts the alert engine queued, queued once (dedupe_key) in the batch of their match, sent once:
-- the drain claims a row before sending it. The number is the user's at sending time.
CREATE TABLE text_outbox (
  id integer PRIMARY KEY AUTOINCREMENT NOT NULL,
  company_id integer NOT NULL,
  user_id integer NOT NULL,
  body text NOT NULL,
  purpose text NOT NULL,
  dedupe_key text NOT NULL,
  created_at integer NOT NULL,
  claimed_at integer,
  delivered integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX text_outbox_dedupe_uq ON text_outbox (dedupe_key);
--> statement-breakpoint
CREATE INDEX text_outbox_pending_idx ON text_outbox (created_at) WHERE claimed_at IS NULL;
