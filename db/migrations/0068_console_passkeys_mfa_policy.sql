-- Console passkeys (WebAuthn) as a second factor, and a company's MFA policy
-- (docs/decisions/0123-console-passkeys-and-mfa-policy.md). Written by hand.

-- A console user's passkeys. credential_id is base64url; public_key is the COSE key (base64url) as the
-- verifier stored it; counter is the signature counter last seen (0 for authenticators without one).
CREATE TABLE console_passkeys (
  id integer PRIMARY KEY AUTOINCREMENT NOT NULL,
  user_id integer NOT NULL,
  company_id integer NOT NULL,
  credential_id text NOT NULL,
  public_key text NOT NULL,
  counter integer NOT NULL DEFAULT 0,
  transports text NOT NULL DEFAULT '[]',
  name text NOT NULL,
  created_at integer NOT NULL,
  last_used_at integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX console_passkeys_credential_idx ON console_passkeys (credential_id);
--> statement-breakpoint
CREATE INDEX console_passkeys_user_idx ON console_passkeys (user_id);
--> statement-breakpoint
-- Single-use challenges: purpose 'register' (a signed-in user adding a passkey) or 'sign-in' (issued only
-- after the right password); spent by setting used_at in one conditional update.
CREATE TABLE passkey_challenges (
  id integer PRIMARY KEY AUTOINCREMENT NOT NULL,
  user_id integer NOT NULL,
  purpose text NOT NULL,
  challenge text NOT NULL,
  expires_at integer NOT NULL,
  used_at integer,
  created_at integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX passkey_challenges_challenge_idx ON passkey_challenges (challenge);
--> statement-breakpoint
CREATE INDEX passkey_challenges_user_idx ON passkey_challenges (user_id, purpose);
--> statement-breakpoint
-- The company's MFA policy: 'none', 'all' (every console user) or 'roles' (users of mfa_policy_role_ids, a JSON array).
ALTER TABLE company_settings ADD COLUMN mfa_policy text NOT NULL DEFAULT 'none';
--> statement-breakpoint
ALTER TABLE company_settings ADD COLUMN mfa_policy_role_ids text NOT NULL DEFAULT '[]';
--> statement-breakpoint
-- A console session of a user the policy covers who has no authenticator app or passkey yet: it opens the
-- enrolment pages only, until one is set up.
ALTER TABLE sessions ADD COLUMN mfa_enrolment_only integer NOT NULL DEFAULT 0;
--> statement-breakpoint
INSERT INTO activity_types (name, type, alert_conditions, first_section_info, details_section_info)
  SELECT 'Passkey Added', 'Admin', '100', 'date,trigger,triggeredBy', 'summary' WHERE NOT EXISTS (SELECT 1 FROM activity_types WHERE name = 'Passkey Added');
--> statement-breakpoint
INSERT INTO activity_types (name, type, alert_conditions, first_section_info, details_section_info)
  SELECT 'Passkey Removed', 'Admin', '100', 'date,trigger,triggeredBy', 'summary' WHERE NOT EXISTS (SELECT 1 FROM activity_types WHERE name = 'Passkey Removed');
--> statement-breakpoint
INSERT INTO activity_types (name, type, alert_conditions, first_section_info, details_section_info)
  SELECT 'Passkey Used', 'Admin', '100', 'date,trigger,triggeredBy', 'summary' WHERE NOT EXISTS (SELECT 1 FROM activity_types WHERE name = 'Passkey Used');
--> statement-breakpoint
INSERT INTO activity_types (name, type, alert_conditions, first_section_info, details_section_info)
  SELECT 'Passkeys Reset', 'Admin', '110', 'date,trigger,triggeredBy', 'summary' WHERE NOT EXISTS (SELECT 1 FROM activity_types WHERE name = 'Passkeys Reset');
--> statement-breakpoint
INSERT INTO activity_types (name, type, alert_conditions, first_section_info, details_section_info)
  SELECT 'MFA Policy Changed', 'Admin', '110', 'date,trigger,triggeredBy', 'summary' WHERE NOT EXISTS (SELECT 1 FROM activity_types WHERE name = 'MFA Policy Changed');
