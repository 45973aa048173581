-- Support access a customer grants (docs/decisions/0093-support-access.md). Written by hand.

-- A company's grant to an ancestor (its reseller, or the platform) for a limited time, with a reason. The
-- grantee's staff may open the company's console as support until expires_at, unless revoked first.
CREATE TABLE support_grants (
  id integer PRIMARY KEY AUTOINCREMENT NOT NULL,
  company_id integer NOT NULL,
  grantee_company_id integer NOT NULL,
  granted_by_user_id integer NOT NULL,
  reason text NOT NULL,
  starts_at integer NOT NULL,
  expires_at integer NOT NULL,
  revoked_at integer,
  revoked_by_user_id integer,
  created_at integer NOT NULL DEFAULT (cast(unixepoch('subsecond') * 1000 as integer))
);
--> statement-breakpoint
CREATE INDEX support_grants_company_idx ON support_grants (company_id, expires_at);
--> statement-breakpoint
CREATE INDEX support_grants_grantee_idx ON support_grants (grantee_company_id, expires_at);
--> statement-breakpoint
-- A support session: a console session of the grantee's staff member inside the granting company.
ALTER TABLE sessions ADD COLUMN support_grant_id integer;
--> statement-breakpoint
CREATE INDEX sessions_support_grant_idx ON sessions (support_grant_id);
--> statement-breakpoint
INSERT INTO activity_types (name, type, alert_conditions)
  SELECT 'Support Access Granted', 'Admin', '100' WHERE NOT EXISTS (SELECT 1 FROM activity_types WHERE name = 'Support Access Granted');
--> statement-breakpoint
INSERT INTO activity_types (name, type, alert_conditions)
  SELECT 'Support Access Revoked', 'Admin', '100' WHERE NOT EXISTS (SELECT 1 FROM activity_types WHERE name = 'Support Access Revoked');
--> statement-breakpoint
INSERT INTO activity_types (name, type, alert_conditions)
  SELECT 'Support Session Opened', 'Admin', '100' WHERE NOT EXISTS (SELECT 1 FROM activity_types WHERE name = 'Support Session Opened');
--> statement-breakpoint
-- The grantee's copy of what its staff did in a customer's console (the customer's own row names them too).
INSERT INTO activity_types (name, type, alert_conditions)
  SELECT 'Support Action', 'Admin', '100' WHERE NOT EXISTS (SELECT 1 FROM activity_types WHERE name = 'Support Action');
