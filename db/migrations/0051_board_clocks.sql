-- Board clocks and zone data (docs/decisions/0092-board-clocks.md). Written by hand.

-- Each board's last clock reading, as its gateway measured it when a status arrived: drift_ms is the
-- board's clock minus the gateway's (null: the board reported no clock), tzdata the tz database version
-- the board decides with (null: not reported), core_tzdata the version of the gateway's core then.
-- reported_at is the gateway's instant of the reading; an older reading never replaces a newer one.
CREATE TABLE device_clocks (
  device_id integer PRIMARY KEY NOT NULL,
  company_id integer NOT NULL,
  drift_ms integer,
  tzdata text,
  core_tzdata text NOT NULL,
  reported_at integer NOT NULL,
  updated_at integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX device_clocks_company_idx ON device_clocks (company_id);
--> statement-breakpoint
-- A board whose clock drifts past 30 s, or whose zone data is older than the core's, is an event alerts can watch.
INSERT INTO activity_types (name, type, alert_conditions, first_section_info, details_section_info)
  SELECT 'Device Clock Drift', 'Device', '001', 'date,trigger,device,deviceGroup', 'summary' WHERE NOT EXISTS (SELECT 1 FROM activity_types WHERE name = 'Device Clock Drift');
--> statement-breakpoint
INSERT INTO activity_types (name, type, alert_conditions, first_section_info, details_section_info)
  SELECT 'Device Zone Data Outdated', 'Device', '001', 'date,trigger,device,deviceGroup', 'summary' WHERE NOT EXISTS (SELECT 1 FROM activity_types WHERE name = 'Device Zone Data Outdated');
