-- Door alarms (docs/decisions/0076-door-alarms.md). Written by hand.

-- Per door: how long it may stand open before a held-open alarm (seconds; null: no held-open alarms),
-- and whether a forced opening raises an alarm. The threshold travels to the board in its configuration.
ALTER TABLE devices ADD COLUMN held_open_seconds integer DEFAULT 30;
--> statement-breakpoint
ALTER TABLE devices ADD COLUMN forced_alarm integer NOT NULL DEFAULT 1;
--> statement-breakpoint
-- The gateway mirrors the threshold (board configuration `heldOpenMs`), so a change reaches the feed.
DROP TRIGGER feed_devices_update;
--> statement-breakpoint
CREATE TRIGGER feed_devices_update AFTER UPDATE ON devices
WHEN old.company_id IS NOT new.company_id OR old.full_name IS NOT new.full_name OR old.device_type_id IS NOT new.device_type_id
  OR old.status IS NOT new.status OR old.schedule_open IS NOT new.schedule_open OR old.relock_timer IS NOT new.relock_timer
  OR old.board_secret_hash IS NOT new.board_secret_hash OR old.deleted_at IS NOT new.deleted_at
  OR old.firmware_start_release_id IS NOT new.firmware_start_release_id OR old.held_open_seconds IS NOT new.held_open_seconds BEGIN
  INSERT INTO gateway_changes (company_id, entity, entity_id, op)
  VALUES (new.company_id, 'device', new.id, CASE WHEN new.deleted_at IS NULL THEN 'upsert' ELSE 'delete' END);
END;
--> statement-breakpoint
-- One row per alarm: active until someone acknowledges it, cleared once it is acknowledged and the door
-- is closed. Repeats while it is not cleared fold into it (repeats, last_seen_at); at most one such row
-- per company, door and kind. The events that raised and cleared it name it, so a re-sent batch finds it.
CREATE TABLE door_alarms (
  id integer PRIMARY KEY AUTOINCREMENT NOT NULL,
  company_id integer NOT NULL,
  device_id integer NOT NULL,
  kind text NOT NULL CHECK (kind IN ('heldOpen', 'forced')),
  state text NOT NULL DEFAULT 'active' CHECK (state IN ('active', 'acknowledged', 'cleared')),
  raised_at integer NOT NULL,
  raised_event_id text NOT NULL,
  last_seen_at integer NOT NULL,
  repeats integer NOT NULL DEFAULT 1,
  door_closed_at integer,
  acknowledged_by_user_id integer,
  acknowledged_at integer,
  note text NOT NULL DEFAULT '',
  cleared_at integer,
  cleared_event_id text,
  created_at integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX door_alarms_open_uq ON door_alarms (company_id, device_id, kind) WHERE state != 'cleared';
--> statement-breakpoint
CREATE INDEX door_alarms_company_idx ON door_alarms (company_id, state, raised_at);
--> statement-breakpoint
CREATE INDEX door_alarms_device_idx ON door_alarms (device_id, kind, last_seen_at);
--> statement-breakpoint
CREATE INDEX door_alarms_raised_event_idx ON door_alarms (raised_event_id);
--> statement-breakpoint
CREATE INDEX door_alarms_cleared_event_idx ON door_alarms (cleared_event_id);
--> statement-breakpoint
-- A new alarm is an event alerts can watch (decision 0059); its acknowledgement and clearing are audit entries.
INSERT INTO activity_types (name, type, alert_conditions, first_section_info, details_section_info)
  SELECT 'Door Held Open Alarm', 'Device', '001', 'date,trigger,device,deviceGroup', 'summary' WHERE NOT EXISTS (SELECT 1 FROM activity_types WHERE name = 'Door Held Open Alarm');
--> statement-breakpoint
INSERT INTO activity_types (name, type, alert_conditions, first_section_info, details_section_info)
  SELECT 'Door Forced Open Alarm', 'Device', '001', 'date,trigger,device,deviceGroup', 'summary' WHERE NOT EXISTS (SELECT 1 FROM activity_types WHERE name = 'Door Forced Open Alarm');
--> statement-breakpoint
INSERT INTO activity_types (name, type, alert_conditions, first_section_info, details_section_info)
  SELECT 'Door Alarm Acknowledged', 'Admin', '101', 'date,trigger,triggeredBy,device,deviceGroup', 'summary' WHERE NOT EXISTS (SELECT 1 FROM activity_types WHERE name = 'Door Alarm Acknowledged');
--> statement-breakpoint
INSERT INTO activity_types (name, type, alert_conditions, first_section_info, details_section_info)
  SELECT 'Door Alarm Cleared', 'Device', '001', 'date,trigger,device,deviceGroup', 'summary' WHERE NOT EXISTS (SELECT 1 FROM activity_types WHERE name = 'Door Alarm Cleared');
