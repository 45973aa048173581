-- Sessions that ended without a sign-out (idle, lifetime, access withdrawn): a client that held one may
-- still report its sign-out once, proving it with the token it held (createActivityLogWithoutLogin,
-- docs/decisions/0061-permission-before-input.md). The trigger remembers every deleted session; the
-- console's own logout and that report consume the row, and the session purge drops rows older than 30 days.
CREATE TABLE ended_sessions (
  id text PRIMARY KEY NOT NULL,
  user_id integer NOT NULL,
  company_id integer NOT NULL,
  ended_at integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE INDEX ended_sessions_ended_idx ON ended_sessions (ended_at);
--> statement-breakpoint
CREATE TRIGGER sessions_ended AFTER DELETE ON sessions BEGIN
  INSERT OR IGNORE INTO ended_sessions (id, user_id, company_id) VALUES (old.id, old.user_id, old.company_id);
END;
