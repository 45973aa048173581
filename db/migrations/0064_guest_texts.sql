-- Visitor passes by text message (docs/decisions/0096-visitor-passes.md, "Consequences"; the outbox of 0073). Written by hand.

-- A guest's link goes by text to the number typed for the pass: a text with no user, only that number.
-- Rebuilt, as SQLite cannot drop a NOT NULL; the rows waiting are kept.
CREATE TABLE text_outbox_next (
  id integer PRIMARY KEY AUTOINCREMENT NOT NULL,
  company_id integer NOT NULL,
  user_id integer,
  to_number text,
  pass_id integer,
  body text NOT NULL,
  purpose text NOT NULL,
  dedupe_key text NOT NULL,
  created_at integer NOT NULL,
  claimed_at integer,
  delivered integer,
  CHECK (user_id IS NOT NULL OR (to_number IS NOT NULL AND pass_id IS NOT NULL))
);
--> statement-breakpoint
INSERT INTO text_outbox_next (id, company_id, user_id, body, purpose, dedupe_key, created_at, claimed_at, delivered)
  SELECT id, company_id, user_id, body, purpose, dedupe_key, created_at, claimed_at, delivered FROM text_outbox;
--> statement-breakpoint
DROP TABLE text_outbox;
--> statement-breakpoint
ALTER TABLE text_outbox_next RENAME TO text_outbox;
--> statement-breakpoint
CREATE UNIQUE INDEX text_outbox_dedupe_uq ON text_outbox (dedupe_key);
--> statement-breakpoint
CREATE INDEX text_outbox_pending_idx ON text_outbox (created_at) WHERE claimed_at IS NULL;
--> statement-breakpoint
-- The host asked to be texted, as well as mailed, when the guest first comes in.
ALTER TABLE visitor_passes ADD COLUMN host_text integer NOT NULL DEFAULT 0;
