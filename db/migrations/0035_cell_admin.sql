-- Cells managed from the console (docs/decisions/0065-cells-managed-in-the-console.md): the platform
-- administrator adds a cell, changes its endpoint or label, and removes an empty one; each is audited.
-- Written by hand. The feed already follows `cells` (0028's triggers: an insert, an mqtt_url change).
INSERT INTO activity_types (name, type, alert_conditions, audience)
  SELECT 'Cell Created', 'Admin', '100', 'platform' WHERE NOT EXISTS (SELECT 1 FROM activity_types WHERE name = 'Cell Created');
--> statement-breakpoint
INSERT INTO activity_types (name, type, alert_conditions, audience)
  SELECT 'Cell Modified', 'Admin', '100', 'platform' WHERE NOT EXISTS (SELECT 1 FROM activity_types WHERE name = 'Cell Modified');
--> statement-breakpoint
INSERT INTO activity_types (name, type, alert_conditions, audience)
  SELECT 'Cell Removed', 'Admin', '100', 'platform' WHERE NOT EXISTS (SELECT 1 FROM activity_types WHERE name = 'Cell Removed');
--> statement-breakpoint
-- Two cells with one endpoint would send one cell's boards to the other's gateways.
CREATE UNIQUE INDEX cells_mqtt_url_unique ON cells (mqtt_url);
