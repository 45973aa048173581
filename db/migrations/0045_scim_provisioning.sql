-- SCIM 2.0 provisioning (docs/decisions/0080-scim-provisioning.md). Written by hand.

-- The directory's own id for a person (SCIM `externalId`) and its login name (`userName`, e.g. Entra's
-- user principal name, which need not be the e-mail); SCIM filters on both.
ALTER TABLE users ADD COLUMN external_id text;
--> statement-breakpoint
ALTER TABLE users ADD COLUMN scim_user_name text;
--> statement-breakpoint
CREATE INDEX users_company_external_idx ON users (company_id, external_id);
--> statement-breakpoint
CREATE INDEX users_company_scim_name_idx ON users (company_id, lower(scim_user_name));
--> statement-breakpoint

-- Bearer tokens a directory presents at /scim/v2: `<id>.<secret>`, the secret stored as a keyed hash
-- (decision 0110's `hmac-sha256$salt$hash`). `last_used_at` is written at most every few minutes.
CREATE TABLE scim_tokens (
  id integer PRIMARY KEY AUTOINCREMENT NOT NULL,
  company_id integer NOT NULL,
  name text NOT NULL,
  secret_hash text NOT NULL,
  created_by_user_id integer,
  created_at integer NOT NULL DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)),
  rotated_at integer,
  last_used_at integer,
  revoked_at integer
);
--> statement-breakpoint
CREATE INDEX scim_tokens_company_idx ON scim_tokens (company_id, revoked_at);
--> statement-breakpoint

-- A directory's group, with what joining it grants: a role and/or keys to device groups (linked by an admin).
CREATE TABLE scim_groups (
  id integer PRIMARY KEY AUTOINCREMENT NOT NULL,
  company_id integer NOT NULL,
  display_name text NOT NULL,
  external_id text,
  role_id integer,
  version integer NOT NULL DEFAULT 1,
  created_at integer NOT NULL DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)),
  updated_at integer NOT NULL DEFAULT (cast(unixepoch('subsecond') * 1000 as integer))
);
--> statement-breakpoint
CREATE UNIQUE INDEX scim_groups_company_name_uq ON scim_groups (company_id, lower(display_name));
--> statement-breakpoint
CREATE TABLE scim_group_members (
  group_id integer NOT NULL,
  user_id integer NOT NULL,
  company_id integer NOT NULL,
  PRIMARY KEY (group_id, user_id)
);
--> statement-breakpoint
CREATE INDEX scim_group_members_user_idx ON scim_group_members (user_id);
--> statement-breakpoint
CREATE TABLE scim_group_device_groups (
  scim_group_id integer NOT NULL,
  device_group_id integer NOT NULL,
  company_id integer NOT NULL,
  PRIMARY KEY (scim_group_id, device_group_id)
);
--> statement-breakpoint

-- A group key granted because its holder is in a directory group: withdrawn when they leave it.
ALTER TABLE ekey_assignments ADD COLUMN scim_group_id integer;
--> statement-breakpoint
CREATE INDEX ekeys_scim_group_idx ON ekey_assignments (scim_group_id, user_id);
--> statement-breakpoint

INSERT INTO activity_types (name, type, alert_conditions, audience)
  SELECT 'Directory Token Created', 'Admin', '100', 'company' WHERE NOT EXISTS (SELECT 1 FROM activity_types WHERE name = 'Directory Token Created');
--> statement-breakpoint
INSERT INTO activity_types (name, type, alert_conditions, audience)
  SELECT 'Directory Token Rotated', 'Admin', '100', 'company' WHERE NOT EXISTS (SELECT 1 FROM activity_types WHERE name = 'Directory Token Rotated');
--> statement-breakpoint
INSERT INTO activity_types (name, type, alert_conditions, audience)
  SELECT 'Directory Token Revoked', 'Admin', '100', 'company' WHERE NOT EXISTS (SELECT 1 FROM activity_types WHERE name = 'Directory Token Revoked');
--> statement-breakpoint
INSERT INTO activity_types (name, type, alert_conditions, audience)
  SELECT 'Directory Group Linked', 'Admin', '100', 'company' WHERE NOT EXISTS (SELECT 1 FROM activity_types WHERE name = 'Directory Group Linked');
--> statement-breakpoint
INSERT INTO activity_types (name, type, alert_conditions, audience)
  SELECT 'Directory User Created', 'Admin', '010', 'company' WHERE NOT EXISTS (SELECT 1 FROM activity_types WHERE name = 'Directory User Created');
--> statement-breakpoint
INSERT INTO activity_types (name, type, alert_conditions, audience)
  SELECT 'Directory User Modified', 'Admin', '010', 'company' WHERE NOT EXISTS (SELECT 1 FROM activity_types WHERE name = 'Directory User Modified');
--> statement-breakpoint
INSERT INTO activity_types (name, type, alert_conditions, audience)
  SELECT 'Directory User Deactivated', 'Admin', '010', 'company' WHERE NOT EXISTS (SELECT 1 FROM activity_types WHERE name = 'Directory User Deactivated');
--> statement-breakpoint
INSERT INTO activity_types (name, type, alert_conditions, audience)
  SELECT 'Directory User Removed', 'Admin', '010', 'company' WHERE NOT EXISTS (SELECT 1 FROM activity_types WHERE name = 'Directory User Removed');
--> statement-breakpoint
INSERT INTO activity_types (name, type, alert_conditions, audience)
  SELECT 'Directory Group Changed', 'Admin', '000', 'company' WHERE NOT EXISTS (SELECT 1 FROM activity_types WHERE name = 'Directory Group Changed');
--> statement-breakpoint
INSERT INTO activity_types (name, type, alert_conditions, audience)
  SELECT 'Directory Access Granted', 'Admin', '010', 'company' WHERE NOT EXISTS (SELECT 1 FROM activity_types WHERE name = 'Directory Access Granted');
--> statement-breakpoint
INSERT INTO activity_types (name, type, alert_conditions, audience)
  SELECT 'Directory Access Withdrawn', 'Admin', '010', 'company' WHERE NOT EXISTS (SELECT 1 FROM activity_types WHERE name = 'Directory Access Withdrawn');
