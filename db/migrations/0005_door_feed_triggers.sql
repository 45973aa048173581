-- The change feed is written by the database itself (docs/decisions/0016-feed-rows-from-triggers.md):
-- every insert, update or delete that can change what a door decides adds its `gateway_changes` row in
-- the same statement, whichever code path made it. Updates fire only when a column a gateway mirrors
-- changes, so bookkeeping writes (last activity, locations, firmware progress) stay off the feed.

-- users → user
CREATE TRIGGER feed_users_insert AFTER INSERT ON users BEGIN
  INSERT INTO gateway_changes (company_id, entity, entity_id, op) VALUES (new.company_id, 'user', new.id, 'upsert');
END;
--> statement-breakpoint
CREATE TRIGGER feed_users_update AFTER UPDATE ON users
WHEN old.company_id IS NOT new.company_id OR old.display_name IS NOT new.display_name OR old.is_inactive IS NOT new.is_inactive
  OR old.deleted_at IS NOT new.deleted_at OR old.bound_device_id IS NOT new.bound_device_id BEGIN
  INSERT INTO gateway_changes (company_id, entity, entity_id, op)
  VALUES (new.company_id, 'user', new.id, CASE WHEN new.deleted_at IS NULL THEN 'upsert' ELSE 'delete' END);
END;
--> statement-breakpoint
CREATE TRIGGER feed_users_delete AFTER DELETE ON users BEGIN
  INSERT INTO gateway_changes (company_id, entity, entity_id, op) VALUES (old.company_id, 'user', old.id, 'delete');
END;
--> statement-breakpoint

-- ekey_assignments → ekey (e-keys and group keys; a fob travels on the key it was given with)
CREATE TRIGGER feed_ekeys_insert AFTER INSERT ON ekey_assignments BEGIN
  INSERT INTO gateway_changes (company_id, entity, entity_id, op) VALUES (new.company_id, 'ekey', new.id, 'upsert');
END;
--> statement-breakpoint
CREATE TRIGGER feed_ekeys_update AFTER UPDATE ON ekey_assignments BEGIN
  INSERT INTO gateway_changes (company_id, entity, entity_id, op) VALUES (new.company_id, 'ekey', new.id, 'upsert');
END;
--> statement-breakpoint
CREATE TRIGGER feed_ekeys_delete AFTER DELETE ON ekey_assignments BEGIN
  INSERT INTO gateway_changes (company_id, entity, entity_id, op) VALUES (old.company_id, 'ekey', old.id, 'delete');
END;
--> statement-breakpoint

-- A fob number belongs to one person within a company (docs/decisions/0017-fobs-bound-to-keys.md).
-- The services refuse a taken number with a clear message first; this is the backstop for any other path.
CREATE INDEX ekeys_company_fob_idx ON ekey_assignments (company_id, fob_device_id);
--> statement-breakpoint
CREATE TRIGGER fob_owner_insert BEFORE INSERT ON ekey_assignments
WHEN coalesce(new.fob_device_id, '') <> '' AND EXISTS (
  SELECT 1 FROM ekey_assignments e WHERE e.company_id = new.company_id AND e.fob_device_id = new.fob_device_id AND e.user_id <> new.user_id) BEGIN
  SELECT RAISE(ABORT, 'fob_taken');
END;
--> statement-breakpoint
CREATE TRIGGER fob_owner_update BEFORE UPDATE OF fob_device_id, user_id, company_id ON ekey_assignments
WHEN coalesce(new.fob_device_id, '') <> '' AND EXISTS (
  SELECT 1 FROM ekey_assignments e WHERE e.company_id = new.company_id AND e.fob_device_id = new.fob_device_id AND e.user_id <> new.user_id) BEGIN
  SELECT RAISE(ABORT, 'fob_taken');
END;
--> statement-breakpoint

-- devices and group membership → device
CREATE TRIGGER feed_devices_insert AFTER INSERT ON devices BEGIN
  INSERT INTO gateway_changes (company_id, entity, entity_id, op) VALUES (new.company_id, 'device', new.id, 'upsert');
END;
--> statement-breakpoint
CREATE TRIGGER feed_devices_update AFTER UPDATE ON devices
WHEN old.company_id IS NOT new.company_id OR old.full_name IS NOT new.full_name OR old.device_type_id IS NOT new.device_type_id
  OR old.status IS NOT new.status OR old.schedule_open IS NOT new.schedule_open OR old.relock_timer IS NOT new.relock_timer
  OR old.board_secret_hash IS NOT new.board_secret_hash OR old.deleted_at IS NOT new.deleted_at BEGIN
  INSERT INTO gateway_changes (company_id, entity, entity_id, op)
  VALUES (new.company_id, 'device', new.id, CASE WHEN new.deleted_at IS NULL THEN 'upsert' ELSE 'delete' END);
END;
--> statement-breakpoint
CREATE TRIGGER feed_devices_delete AFTER DELETE ON devices BEGIN
  INSERT INTO gateway_changes (company_id, entity, entity_id, op) VALUES (old.company_id, 'device', old.id, 'delete');
END;
--> statement-breakpoint
CREATE TRIGGER feed_members_insert AFTER INSERT ON device_group_members BEGIN
  INSERT INTO gateway_changes (company_id, entity, entity_id, op) VALUES (new.company_id, 'device', new.device_id, 'upsert');
END;
--> statement-breakpoint
CREATE TRIGGER feed_members_delete AFTER DELETE ON device_group_members BEGIN
  INSERT INTO gateway_changes (company_id, entity, entity_id, op) VALUES (old.company_id, 'device', old.device_id, 'upsert');
END;
--> statement-breakpoint

-- device_groups → group (its keys' window, and its doors' membership when it goes away)
CREATE TRIGGER feed_groups_update AFTER UPDATE ON device_groups
WHEN old.sch_monday IS NOT new.sch_monday OR old.sch_tuesday IS NOT new.sch_tuesday OR old.sch_wednesday IS NOT new.sch_wednesday
  OR old.sch_thursday IS NOT new.sch_thursday OR old.sch_friday IS NOT new.sch_friday OR old.sch_saturday IS NOT new.sch_saturday
  OR old.sch_sunday IS NOT new.sch_sunday OR old.start_at IS NOT new.start_at OR old.end_at IS NOT new.end_at
  OR old.is_all_day IS NOT new.is_all_day OR old.time_zone_id IS NOT new.time_zone_id OR old.status IS NOT new.status
  OR old.deleted_at IS NOT new.deleted_at OR old.full_name IS NOT new.full_name OR old.company_id IS NOT new.company_id BEGIN
  INSERT INTO gateway_changes (company_id, entity, entity_id, op)
  VALUES (new.company_id, 'group', new.id, CASE WHEN new.deleted_at IS NULL THEN 'upsert' ELSE 'delete' END);
END;
--> statement-breakpoint
CREATE TRIGGER feed_groups_delete AFTER DELETE ON device_groups BEGIN
  INSERT INTO gateway_changes (company_id, entity, entity_id, op) VALUES (old.company_id, 'group', old.id, 'delete');
END;
--> statement-breakpoint

-- companies and the settings doors follow → company
CREATE TRIGGER feed_companies_insert AFTER INSERT ON companies BEGIN
  INSERT INTO gateway_changes (company_id, entity, entity_id, op) VALUES (new.id, 'company', new.id, 'upsert');
END;
--> statement-breakpoint
CREATE TRIGGER feed_companies_update AFTER UPDATE ON companies
WHEN old.code IS NOT new.code OR old.is_deactive IS NOT new.is_deactive OR old.deleted_at IS NOT new.deleted_at BEGIN
  INSERT INTO gateway_changes (company_id, entity, entity_id, op) VALUES (new.id, 'company', new.id, 'upsert');
END;
--> statement-breakpoint
CREATE TRIGGER feed_settings_insert AFTER INSERT ON company_settings BEGIN
  INSERT INTO gateway_changes (company_id, entity, entity_id, op) VALUES (new.company_id, 'company', new.company_id, 'upsert');
END;
--> statement-breakpoint
-- The default zone is every door's and zone-less key's zone: the whole company goes again. Scheduled
-- open switched on or off, or first-person-in, changes only the company's scheduled-open window.
CREATE TRIGGER feed_settings_zone AFTER UPDATE ON company_settings
WHEN old.default_time_zone_id IS NOT new.default_time_zone_id BEGIN
  INSERT INTO gateway_changes (company_id, entity, entity_id, op) VALUES (new.company_id, 'company', new.company_id, 'upsert');
END;
--> statement-breakpoint
CREATE TRIGGER feed_settings_schedule AFTER UPDATE ON company_settings
WHEN old.schedule_open IS NOT new.schedule_open OR old.fpi IS NOT new.fpi BEGIN
  INSERT INTO gateway_changes (company_id, entity, entity_id, op) VALUES (new.company_id, 'scheduledOpen', new.company_id, 'upsert');
END;
--> statement-breakpoint

-- scheduled-open hours, and a first entry a gateway reported → scheduledOpen
CREATE TRIGGER feed_open_days_insert AFTER INSERT ON schedule_open_days BEGIN
  INSERT INTO gateway_changes (company_id, entity, entity_id, op) VALUES (new.company_id, 'scheduledOpen', new.company_id, 'upsert');
END;
--> statement-breakpoint
CREATE TRIGGER feed_open_days_update AFTER UPDATE ON schedule_open_days BEGIN
  INSERT INTO gateway_changes (company_id, entity, entity_id, op) VALUES (new.company_id, 'scheduledOpen', new.company_id, 'upsert');
END;
--> statement-breakpoint
CREATE TRIGGER feed_open_days_delete AFTER DELETE ON schedule_open_days BEGIN
  INSERT INTO gateway_changes (company_id, entity, entity_id, op) VALUES (old.company_id, 'scheduledOpen', old.company_id, 'upsert');
END;
--> statement-breakpoint
CREATE TRIGGER feed_open_exceptions_insert AFTER INSERT ON schedule_open_exceptions BEGIN
  INSERT INTO gateway_changes (company_id, entity, entity_id, op) VALUES (new.company_id, 'scheduledOpen', new.company_id, 'upsert');
END;
--> statement-breakpoint
CREATE TRIGGER feed_open_exceptions_update AFTER UPDATE ON schedule_open_exceptions BEGIN
  INSERT INTO gateway_changes (company_id, entity, entity_id, op) VALUES (new.company_id, 'scheduledOpen', new.company_id, 'upsert');
END;
--> statement-breakpoint
CREATE TRIGGER feed_open_exceptions_delete AFTER DELETE ON schedule_open_exceptions BEGIN
  INSERT INTO gateway_changes (company_id, entity, entity_id, op) VALUES (old.company_id, 'scheduledOpen', old.company_id, 'upsert');
END;
--> statement-breakpoint
CREATE TRIGGER feed_first_entry AFTER INSERT ON activity_logs
WHEN new.activity_type_id = (SELECT id FROM activity_types WHERE name = 'Scheduled Open Started') BEGIN
  INSERT INTO gateway_changes (company_id, entity, entity_id, op) VALUES (new.company_id, 'scheduledOpen', new.company_id, 'upsert');
END;
--> statement-breakpoint

-- firmware releases, and device-type codes that devices and releases are named by
CREATE TRIGGER feed_firmware_insert AFTER INSERT ON firmware_releases BEGIN
  INSERT INTO gateway_changes (company_id, entity, entity_id, op) VALUES (new.company_id, 'firmware', new.id, 'upsert');
END;
--> statement-breakpoint
CREATE TRIGGER feed_firmware_update AFTER UPDATE ON firmware_releases BEGIN
  INSERT INTO gateway_changes (company_id, entity, entity_id, op)
  VALUES (new.company_id, 'firmware', new.id, CASE WHEN new.deleted_at IS NULL THEN 'upsert' ELSE 'delete' END);
END;
--> statement-breakpoint
CREATE TRIGGER feed_firmware_delete AFTER DELETE ON firmware_releases BEGIN
  INSERT INTO gateway_changes (company_id, entity, entity_id, op) VALUES (old.company_id, 'firmware', old.id, 'delete');
END;
--> statement-breakpoint
CREATE TRIGGER feed_device_types_update AFTER UPDATE ON device_types WHEN old.device_code IS NOT new.device_code BEGIN
  INSERT INTO gateway_changes (company_id, entity, entity_id, op) VALUES (0, 'deviceType', new.id, 'upsert');
END;
