-- Cells as records (docs/decisions/0050-cells.md): each has the public MQTT endpoint its boards use. A
-- company's move to another cell is remembered (previous_cell, cell_moved_at) so the cell it left may still
-- deliver what its gateway had buffered, and it reaches the gateways' feed in the same statement as the move.
CREATE TABLE cells (
  name text PRIMARY KEY NOT NULL,
  mqtt_url text NOT NULL,
  label text NOT NULL DEFAULT '',
  created_at integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
-- The local gateway's MQTT port (scripts/start.sh, gateway/README.md).
INSERT INTO cells (name, mqtt_url, label) VALUES ('main', 'mqtt://127.0.0.1:1883', 'Main');
--> statement-breakpoint
ALTER TABLE companies ADD COLUMN previous_cell text;
--> statement-breakpoint
ALTER TABLE companies ADD COLUMN cell_moved_at integer;
--> statement-breakpoint
-- A cell a feed row concerns besides its company's current one: the cell a company or a transferred device
-- left (its gateway is told to forget them), or the cell whose own record changed.
ALTER TABLE gateway_changes ADD COLUMN cell text;
--> statement-breakpoint
CREATE TRIGGER feed_cells_insert AFTER INSERT ON cells BEGIN
  INSERT INTO gateway_changes (company_id, entity, entity_id, op, cell) VALUES (0, 'cell', new.rowid, 'upsert', new.name);
END;
--> statement-breakpoint
CREATE TRIGGER feed_cells_update AFTER UPDATE ON cells WHEN old.mqtt_url IS NOT new.mqtt_url BEGIN
  INSERT INTO gateway_changes (company_id, entity, entity_id, op, cell) VALUES (0, 'cell', new.rowid, 'upsert', new.name);
END;
--> statement-breakpoint
-- A company moved: the cell it left forgets every record of it, the cell it joined learns them.
CREATE TRIGGER feed_companies_cell AFTER UPDATE ON companies WHEN old.cell IS NOT new.cell BEGIN
  INSERT INTO gateway_changes (company_id, entity, entity_id, op, cell) VALUES (new.id, 'companyCell', new.id, 'upsert', old.cell);
END;
--> statement-breakpoint
-- A device transferred to a company of another cell: the cell it left forgets it.
CREATE TRIGGER feed_devices_cell AFTER UPDATE ON devices
WHEN old.company_id IS NOT new.company_id
  AND (SELECT cell FROM companies WHERE id = old.company_id) IS NOT (SELECT cell FROM companies WHERE id = new.company_id) BEGIN
  INSERT INTO gateway_changes (company_id, entity, entity_id, op, cell)
  VALUES (new.company_id, 'device', new.id, 'upsert', (SELECT cell FROM companies WHERE id = old.company_id));
END;
--> statement-breakpoint
CREATE INDEX gateway_changes_cell_idx ON gateway_changes (cell) WHERE cell IS NOT NULL;
--> statement-breakpoint
CREATE INDEX companies_cell_idx ON companies (cell);
--> statement-breakpoint
INSERT INTO activity_types (name, type, alert_conditions)
  SELECT 'Moved Company To Cell', 'Admin', '100' WHERE NOT EXISTS (SELECT 1 FROM activity_types WHERE name = 'Moved Company To Cell');
