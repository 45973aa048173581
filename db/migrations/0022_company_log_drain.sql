-- Each company's activity log is copied into its own store, a Durable Object (docs/decisions/0047-activity-log-per-company.md).
-- The store follows D1 by id: these indexes make "this company's rows (and notes) after id N" one range
-- read (an index on company_id alone ends in the rowid, so the id range is part of the seek).
CREATE INDEX IF NOT EXISTS `activity_company_id_idx` ON `activity_logs` (`company_id`);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS `activity_notes_company_idx` ON `activity_notes` (`company_id`);
--> statement-breakpoint
-- Renames the stores must pick up: the log shows today's names of people, devices and groups. The
-- sequence is D1's commit order, so a store that has read up to seq N has missed nothing before it.
CREATE TABLE `log_name_changes` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`company_id` integer NOT NULL,
	`kind` text NOT NULL,
	`ref_id` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `log_name_changes_company_idx` ON `log_name_changes` (`company_id`, `seq`);
--> statement-breakpoint
CREATE TRIGGER log_names_users AFTER UPDATE OF display_name ON users WHEN old.display_name IS NOT new.display_name BEGIN
  INSERT INTO log_name_changes (company_id, kind, ref_id) VALUES (new.company_id, 'users', new.id);
END;
--> statement-breakpoint
CREATE TRIGGER log_names_devices AFTER UPDATE OF display_name, full_name, sensor1_open_name, sensor1_close_name, sensor2_open_name, sensor2_close_name ON devices
WHEN old.display_name IS NOT new.display_name OR old.full_name IS NOT new.full_name OR old.sensor1_open_name IS NOT new.sensor1_open_name
  OR old.sensor1_close_name IS NOT new.sensor1_close_name OR old.sensor2_open_name IS NOT new.sensor2_open_name OR old.sensor2_close_name IS NOT new.sensor2_close_name BEGIN
  INSERT INTO log_name_changes (company_id, kind, ref_id) VALUES (new.company_id, 'devices', new.id);
END;
--> statement-breakpoint
CREATE TRIGGER log_names_device_groups AFTER UPDATE OF full_name, display_name ON device_groups
WHEN old.full_name IS NOT new.full_name OR old.display_name IS NOT new.display_name BEGIN
  INSERT INTO log_name_changes (company_id, kind, ref_id) VALUES (new.company_id, 'device_groups', new.id);
END;
