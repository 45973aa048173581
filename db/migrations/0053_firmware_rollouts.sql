-- Staged firmware rollouts (docs/decisions/0094-staged-firmware-rollouts.md). Written by hand.

-- One plan per release: waves of a device type's boards, each opened once the previous one stayed healthy
-- for soak_minutes; paused by itself when a wave's failures reach fail_count boards or fail_percent of it.
CREATE TABLE firmware_rollouts (
  id integer PRIMARY KEY AUTOINCREMENT NOT NULL,
  release_id integer NOT NULL,
  device_type_id integer NOT NULL,
  -- the type's active release when the rollout started: what boards outside open waves keep, and the rollback
  previous_release_id integer,
  -- cumulative percentages, ascending, ending at 100 (JSON array); the first is the canary wave
  waves text NOT NULL,
  -- device ids chosen for the canary wave (JSON array)
  canary text NOT NULL DEFAULT '[]',
  soak_minutes integer NOT NULL,
  online_minutes integer NOT NULL,
  fail_percent integer,
  fail_count integer,
  state text NOT NULL,
  wave integer NOT NULL DEFAULT 0,
  wave_started_at integer NOT NULL,
  -- failures before this instant were dealt with (a resume): only later ones count against the wave
  counted_from integer NOT NULL,
  paused_reason text NOT NULL DEFAULT '',
  company_id integer NOT NULL,
  created_by_user_id integer NOT NULL,
  created_at integer NOT NULL DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)),
  updated_at integer NOT NULL DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)),
  ended_at integer
);
--> statement-breakpoint
-- At most one open (running or paused) rollout per device type.
CREATE UNIQUE INDEX firmware_rollouts_open_type_idx ON firmware_rollouts (device_type_id) WHERE state IN ('running', 'paused');
--> statement-breakpoint
CREATE INDEX firmware_rollouts_release_idx ON firmware_rollouts (release_id);
--> statement-breakpoint
-- The release's feed record carries its open rollout: every change of one tells the gateways.
CREATE TRIGGER feed_firmware_rollout_insert AFTER INSERT ON firmware_rollouts BEGIN
  INSERT INTO gateway_changes (company_id, entity, entity_id, op) VALUES (new.company_id, 'firmware', new.release_id, 'upsert');
END;
--> statement-breakpoint
CREATE TRIGGER feed_firmware_rollout_update AFTER UPDATE OF state, wave, waves, canary ON firmware_rollouts BEGIN
  INSERT INTO gateway_changes (company_id, entity, entity_id, op) VALUES (new.company_id, 'firmware', new.release_id, 'upsert');
END;
--> statement-breakpoint
-- Failures and installs as the gateway timed them: a failure stays counted after a retry; an install
-- is healthy once the board is back online after it.
ALTER TABLE firmware_progress ADD COLUMN failed_at integer;
--> statement-breakpoint
ALTER TABLE firmware_progress ADD COLUMN installed_at integer;
--> statement-breakpoint
INSERT INTO activity_types (name, type, alert_conditions)
  SELECT 'Firmware Rollout Started', 'Admin', '100' WHERE NOT EXISTS (SELECT 1 FROM activity_types WHERE name = 'Firmware Rollout Started');
--> statement-breakpoint
INSERT INTO activity_types (name, type, alert_conditions)
  SELECT 'Firmware Rollout Wave Opened', 'Admin', '100' WHERE NOT EXISTS (SELECT 1 FROM activity_types WHERE name = 'Firmware Rollout Wave Opened');
--> statement-breakpoint
INSERT INTO activity_types (name, type, alert_conditions)
  SELECT 'Firmware Rollout Paused', 'Admin', '100' WHERE NOT EXISTS (SELECT 1 FROM activity_types WHERE name = 'Firmware Rollout Paused');
--> statement-breakpoint
INSERT INTO activity_types (name, type, alert_conditions)
  SELECT 'Firmware Rollout Resumed', 'Admin', '100' WHERE NOT EXISTS (SELECT 1 FROM activity_types WHERE name = 'Firmware Rollout Resumed');
--> statement-breakpoint
INSERT INTO activity_types (name, type, alert_conditions)
  SELECT 'Firmware Rollout Aborted', 'Admin', '100' WHERE NOT EXISTS (SELECT 1 FROM activity_types WHERE name = 'Firmware Rollout Aborted');
--> statement-breakpoint
INSERT INTO activity_types (name, type, alert_conditions)
  SELECT 'Firmware Rollout Completed', 'Admin', '100' WHERE NOT EXISTS (SELECT 1 FROM activity_types WHERE name = 'Firmware Rollout Completed');
