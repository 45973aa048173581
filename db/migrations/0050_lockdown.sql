-- Lockdown and evacuation (docs/decisions/0083-lockdown.md, gateway side 0117). Written by hand.

-- A company's plans: what a start puts in force. scope 'company' covers every door; 'groups' and 'doors'
-- name device groups or devices in scope_ids (a JSON array of ids). Exempt users and roles (JSON arrays)
-- keep their normal access during a lockdown. duration_minutes: the lockdown ends by itself after it.
CREATE TABLE lockdown_plans (
  id integer PRIMARY KEY AUTOINCREMENT NOT NULL,
  company_id integer NOT NULL,
  name text NOT NULL,
  mode text NOT NULL CHECK (mode IN ('lockdown', 'evacuation')),
  scope text NOT NULL CHECK (scope IN ('company', 'groups', 'doors')),
  scope_ids text NOT NULL DEFAULT '[]',
  exempt_user_ids text NOT NULL DEFAULT '[]',
  exempt_role_ids text NOT NULL DEFAULT '[]',
  duration_minutes integer,
  created_at integer NOT NULL DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)),
  updated_at integer NOT NULL DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)),
  deleted_at integer
);
--> statement-breakpoint
CREATE INDEX lockdown_plans_company_idx ON lockdown_plans (company_id, deleted_at, name);
--> statement-breakpoint
-- The company's lockdown state: one row per company, the plan as it was when started (a later edit of the
-- plan does not change a lockdown in force). Active while started_at is set and ended_at is not (and
-- ends_at, when set, is still ahead). epoch goes up by one at every start and end: what boards compare.
-- The console shell reads it by primary key on every page (the banner).
CREATE TABLE company_lockdowns (
  company_id integer PRIMARY KEY NOT NULL,
  epoch integer NOT NULL DEFAULT 0,
  plan_id integer,
  plan_name text NOT NULL DEFAULT '',
  mode text NOT NULL DEFAULT 'lockdown' CHECK (mode IN ('lockdown', 'evacuation')),
  scope text NOT NULL DEFAULT 'company' CHECK (scope IN ('company', 'groups', 'doors')),
  scope_ids text NOT NULL DEFAULT '[]',
  exempt_user_ids text NOT NULL DEFAULT '[]',
  exempt_role_ids text NOT NULL DEFAULT '[]',
  started_by_user_id integer,
  started_by_name text NOT NULL DEFAULT '',
  started_at integer,
  ends_at integer,
  ended_at integer,
  ended_by_name text
);
--> statement-breakpoint
-- The cron's sweep of lockdowns whose duration ran out.
CREATE INDEX company_lockdowns_ends_idx ON company_lockdowns (ends_at) WHERE ended_at IS NULL;
--> statement-breakpoint
-- Gateways mirror the state (feed entity 'lockdown', decision 0030): every start and end reaches the feed.
CREATE TRIGGER feed_lockdown_insert AFTER INSERT ON company_lockdowns BEGIN
  INSERT INTO gateway_changes (company_id, entity, entity_id, op) VALUES (new.company_id, 'lockdown', new.company_id, 'upsert');
END;
--> statement-breakpoint
CREATE TRIGGER feed_lockdown_update AFTER UPDATE ON company_lockdowns WHEN old.epoch IS NOT new.epoch BEGIN
  INSERT INTO gateway_changes (company_id, entity, entity_id, op) VALUES (new.company_id, 'lockdown', new.company_id, 'upsert');
END;
--> statement-breakpoint
-- Exempt roles travel as the users holding them: a user joining or leaving a role during a lockdown changes the record.
CREATE TRIGGER feed_lockdown_user_role AFTER UPDATE ON users
WHEN old.role_id IS NOT new.role_id
  AND EXISTS (SELECT 1 FROM company_lockdowns l WHERE l.company_id = new.company_id AND l.started_at IS NOT NULL AND l.ended_at IS NULL) BEGIN
  INSERT INTO gateway_changes (company_id, entity, entity_id, op) VALUES (new.company_id, 'lockdown', new.company_id, 'upsert');
END;
--> statement-breakpoint
CREATE TRIGGER feed_lockdown_user_insert AFTER INSERT ON users
WHEN new.role_id IS NOT NULL
  AND EXISTS (SELECT 1 FROM company_lockdowns l WHERE l.company_id = new.company_id AND l.started_at IS NOT NULL AND l.ended_at IS NULL) BEGIN
  INSERT INTO gateway_changes (company_id, entity, entity_id, op) VALUES (new.company_id, 'lockdown', new.company_id, 'upsert');
END;
--> statement-breakpoint
INSERT INTO activity_types (name, type, alert_conditions, audience)
  SELECT 'Lockdown Plan Added', 'Admin', '100', 'company' WHERE NOT EXISTS (SELECT 1 FROM activity_types WHERE name = 'Lockdown Plan Added');
--> statement-breakpoint
INSERT INTO activity_types (name, type, alert_conditions, audience)
  SELECT 'Lockdown Plan Modified', 'Admin', '100', 'company' WHERE NOT EXISTS (SELECT 1 FROM activity_types WHERE name = 'Lockdown Plan Modified');
--> statement-breakpoint
INSERT INTO activity_types (name, type, alert_conditions, audience)
  SELECT 'Lockdown Plan Deleted', 'Admin', '100', 'company' WHERE NOT EXISTS (SELECT 1 FROM activity_types WHERE name = 'Lockdown Plan Deleted');
--> statement-breakpoint
INSERT INTO activity_types (name, type, alert_conditions, audience)
  SELECT 'Lockdown Started', 'Admin', '100', 'company' WHERE NOT EXISTS (SELECT 1 FROM activity_types WHERE name = 'Lockdown Started');
--> statement-breakpoint
INSERT INTO activity_types (name, type, alert_conditions, audience)
  SELECT 'Lockdown Ended', 'Admin', '100', 'company' WHERE NOT EXISTS (SELECT 1 FROM activity_types WHERE name = 'Lockdown Ended');
