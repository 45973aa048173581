-- Board presence as each gateway reports it (decisions 0033 and 0113). One row per device and
-- gateway instance: a board is online while any fresh gateway says so. Not mirrored to gateways,
-- so no feed trigger.
CREATE TABLE device_presence (
  device_id integer NOT NULL,
  gateway_id integer NOT NULL,
  instance text NOT NULL DEFAULT '',
  company_id integer NOT NULL,
  online integer NOT NULL,
  since integer NOT NULL,
  updated_at integer NOT NULL,
  PRIMARY KEY (device_id, gateway_id, instance)
);
--> statement-breakpoint
CREATE INDEX device_presence_gateway_idx ON device_presence (gateway_id, instance, online);
--> statement-breakpoint
-- The door's contact state as last reported (sensor.contact input 1, door.opened/closed).
ALTER TABLE devices ADD COLUMN door_state text;
--> statement-breakpoint
ALTER TABLE devices ADD COLUMN door_state_at integer;
--> statement-breakpoint
-- The devices list sorts and filters within a company by these.
CREATE INDEX devices_company_serial_idx ON devices (company_id, serial_number);
--> statement-breakpoint
CREATE INDEX devices_company_activity_idx ON devices (company_id, last_activity_at);
--> statement-breakpoint
CREATE INDEX devices_company_type_idx ON devices (company_id, device_type_id);
--> statement-breakpoint
CREATE INDEX devices_company_battery_idx ON devices (company_id, low_battery);
