-- Remote commands from the console to a board (decision 0034). A row is created pending, claimed once by
-- the gateway that holds the board's connection (status 'sent', claimed_by), and finished by the board's
-- command.result event ('succeeded' / 'failed') or by its expiry ('failed', error 'expired').
CREATE TABLE device_commands (
  id integer PRIMARY KEY AUTOINCREMENT NOT NULL,
  company_id integer NOT NULL,
  device_id integer NOT NULL,
  command text NOT NULL,
  status text DEFAULT 'pending' NOT NULL,
  requested_by_user_id integer,
  expires_at integer NOT NULL,
  claimed_by integer,
  claimed_at integer,
  finished_at integer,
  error text,
  created_at integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE INDEX device_commands_open_idx ON device_commands (status, device_id);
--> statement-breakpoint
CREATE INDEX device_commands_device_idx ON device_commands (company_id, device_id, id);
--> statement-breakpoint
INSERT INTO activity_types (name, type, alert_conditions)
  SELECT 'Remote Unlock Requested', 'Admin', '001' WHERE NOT EXISTS (SELECT 1 FROM activity_types WHERE name = 'Remote Unlock Requested');
