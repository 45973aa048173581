-- Device lifecycle (decision 0022): the audit names of registration, configuration, secret rotation,
-- removal of a configuration and retirement. The device states and the transfer tables already exist;
-- the devices feed trigger (0005) already fires on status and board_secret_hash.
INSERT INTO activity_types (name, type, alert_conditions)
  SELECT 'Devices Registered', 'Admin', '100' WHERE NOT EXISTS (SELECT 1 FROM activity_types WHERE name = 'Devices Registered');
--> statement-breakpoint
INSERT INTO activity_types (name, type, alert_conditions)
  SELECT 'Device Configured', 'Admin', '001' WHERE NOT EXISTS (SELECT 1 FROM activity_types WHERE name = 'Device Configured');
--> statement-breakpoint
INSERT INTO activity_types (name, type, alert_conditions)
  SELECT 'Device Secret Rotated', 'Admin', '001' WHERE NOT EXISTS (SELECT 1 FROM activity_types WHERE name = 'Device Secret Rotated');
--> statement-breakpoint
INSERT INTO activity_types (name, type, alert_conditions)
  SELECT 'Device Configuration Removed', 'Admin', '001' WHERE NOT EXISTS (SELECT 1 FROM activity_types WHERE name = 'Device Configuration Removed');
--> statement-breakpoint
INSERT INTO activity_types (name, type, alert_conditions)
  SELECT 'Device Retired', 'Admin', '001' WHERE NOT EXISTS (SELECT 1 FROM activity_types WHERE name = 'Device Retired');
--> statement-breakpoint
-- Serial labels are looked up by either side when boards are registered.
CREATE INDEX IF NOT EXISTS devices_serial_front_idx ON devices (serial_front);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS devices_serial_back_idx ON devices (serial_back);
