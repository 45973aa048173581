-- Visitor passes (issue 32, docs/decisions/0096-visitor-passes.md). Written by hand.

-- A guest's pass: who hosts it, the guest's language (the mail's and the phone's), which doors (a list, or one device group), and its window in the zone of
-- the company: the dates, the daily hours, and whether it is one entry. The guest's link is
-- stored as a keyed hash only; the first phone that opens it is bound (installation_id) and no other
-- may. first_entry_at is the first door it opened (the host is told once), used_at spends a one-entry
-- pass, revoked_at withdraws it (the feed then deletes it, so boards get it in their revocation list).
CREATE TABLE visitor_passes (
  id integer PRIMARY KEY AUTOINCREMENT NOT NULL,
  company_id integer NOT NULL,
  host_user_id integer NOT NULL,
  created_by_user_id integer,
  guest_name text NOT NULL CHECK (length(guest_name) BETWEEN 1 AND 100),
  guest_email text CHECK (guest_email IS NULL OR length(guest_email) <= 254),
  guest_phone text CHECK (guest_phone IS NULL OR length(guest_phone) <= 20),
  language text NOT NULL DEFAULT 'en' CHECK (language IN ('en', 'es')),
  device_ids text NOT NULL DEFAULT '[]',
  device_group_id integer,
  one_entry integer NOT NULL DEFAULT 0,
  start_date text NOT NULL,
  end_date text NOT NULL,
  start_time text NOT NULL,
  end_time text NOT NULL,
  link_hash text NOT NULL,
  link_expires_at integer NOT NULL,
  installation_id text,
  bound_at integer,
  first_entry_at integer,
  used_at integer,
  revoked_at integer,
  created_at integer NOT NULL DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)),
  updated_at integer NOT NULL DEFAULT (cast(unixepoch('subsecond') * 1000 as integer))
);
--> statement-breakpoint
CREATE UNIQUE INDEX visitor_passes_link_uq ON visitor_passes (link_hash);
--> statement-breakpoint
CREATE INDEX visitor_passes_company_idx ON visitor_passes (company_id, end_date);
--> statement-breakpoint
-- The company's rules: the longest visit in days, the roles whose users may host (besides those who may
-- add users), and the device group bounding the doors guests may ever open (none: any door).
CREATE TABLE visitor_pass_rules (
  company_id integer PRIMARY KEY NOT NULL,
  max_days integer NOT NULL DEFAULT 7 CHECK (max_days BETWEEN 1 AND 90),
  host_role_ids text NOT NULL DEFAULT '[]',
  device_group_id integer,
  updated_at integer NOT NULL DEFAULT (cast(unixepoch('subsecond') * 1000 as integer))
);
--> statement-breakpoint
-- What a door decides follows the feed: a new pass, a spent or withdrawn one, reach the gateways.
CREATE TRIGGER feed_visitor_pass_insert AFTER INSERT ON visitor_passes BEGIN
  INSERT INTO gateway_changes (company_id, entity, entity_id, op) VALUES (new.company_id, 'pass', new.id, 'upsert');
END;
--> statement-breakpoint
CREATE TRIGGER feed_visitor_pass_update AFTER UPDATE ON visitor_passes
WHEN old.used_at IS NOT new.used_at OR old.revoked_at IS NOT new.revoked_at OR old.device_ids IS NOT new.device_ids
  OR old.device_group_id IS NOT new.device_group_id BEGIN
  INSERT INTO gateway_changes (company_id, entity, entity_id, op)
  VALUES (new.company_id, 'pass', new.id, CASE WHEN new.revoked_at IS NULL THEN 'upsert' ELSE 'delete' END);
END;
--> statement-breakpoint
INSERT INTO activity_types (name, type, alert_conditions, first_section_info, details_section_info)
  SELECT 'Visitor Pass Created', 'Admin', '100', 'date,trigger,triggeredBy', 'summary' WHERE NOT EXISTS (SELECT 1 FROM activity_types WHERE name = 'Visitor Pass Created');
--> statement-breakpoint
INSERT INTO activity_types (name, type, alert_conditions, first_section_info, details_section_info)
  SELECT 'Visitor Pass Revoked', 'Admin', '100', 'date,trigger,triggeredBy', 'summary' WHERE NOT EXISTS (SELECT 1 FROM activity_types WHERE name = 'Visitor Pass Revoked');
--> statement-breakpoint
INSERT INTO activity_types (name, type, alert_conditions, first_section_info, details_section_info)
  SELECT 'Visitor Pass Opened', 'App', '100', 'date,trigger', 'summary' WHERE NOT EXISTS (SELECT 1 FROM activity_types WHERE name = 'Visitor Pass Opened');
--> statement-breakpoint
INSERT INTO activity_types (name, type, alert_conditions, first_section_info, details_section_info)
  SELECT 'Visitor Pass Rules Modified', 'Admin', '100', 'date,trigger,triggeredBy', 'summary' WHERE NOT EXISTS (SELECT 1 FROM activity_types WHERE name = 'Visitor Pass Rules Modified');
