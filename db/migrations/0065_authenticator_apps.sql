-- An authenticator app (TOTP, RFC 6238) as a console user's second factor, with one-time recovery codes
-- (docs/decisions/0120-admin-authenticator-apps.md). Written by hand.

-- One authenticator per user. The secret is sealed (utils/at-rest.server.ts); confirmed_at is null while the
-- user has not yet typed a code from it (enrolment pending, not used at sign-in). last_step is the 30 s step
-- of the last code accepted: a code of that step or an earlier one is refused (replay).
CREATE TABLE authenticator_apps (
  user_id integer PRIMARY KEY NOT NULL,
  company_id integer NOT NULL,
  secret text NOT NULL,
  confirmed_at integer,
  last_step integer NOT NULL DEFAULT 0,
  created_at integer NOT NULL
);
--> statement-breakpoint
-- Keyed hashes (utils/secret-hash.server.ts) of the ten codes shown once at confirmation; used_at spends one.
CREATE TABLE authenticator_recovery_codes (
  id integer PRIMARY KEY AUTOINCREMENT NOT NULL,
  user_id integer NOT NULL,
  code_hash text NOT NULL,
  used_at integer
);
--> statement-breakpoint
CREATE INDEX authenticator_recovery_user_idx ON authenticator_recovery_codes (user_id);
--> statement-breakpoint
INSERT INTO activity_types (name, type, alert_conditions, first_section_info, details_section_info)
  SELECT 'Authenticator App Enrolled', 'Admin', '100', 'date,trigger,triggeredBy', 'summary' WHERE NOT EXISTS (SELECT 1 FROM activity_types WHERE name = 'Authenticator App Enrolled');
--> statement-breakpoint
INSERT INTO activity_types (name, type, alert_conditions, first_section_info, details_section_info)
  SELECT 'Authenticator App Removed', 'Admin', '100', 'date,trigger,triggeredBy', 'summary' WHERE NOT EXISTS (SELECT 1 FROM activity_types WHERE name = 'Authenticator App Removed');
--> statement-breakpoint
INSERT INTO activity_types (name, type, alert_conditions, first_section_info, details_section_info)
  SELECT 'Authenticator App Reset', 'Admin', '110', 'date,trigger,triggeredBy', 'summary' WHERE NOT EXISTS (SELECT 1 FROM activity_types WHERE name = 'Authenticator App Reset');
--> statement-breakpoint
INSERT INTO activity_types (name, type, alert_conditions, first_section_info, details_section_info)
  SELECT 'Recovery Code Used', 'Admin', '100', 'date,trigger,triggeredBy', 'summary' WHERE NOT EXISTS (SELECT 1 FROM activity_types WHERE name = 'Recovery Code Used');
