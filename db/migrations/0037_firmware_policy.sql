-- The company's firmware policy at the door (docs/decisions/0116-firmware-policy-at-the-door.md).
-- Written by hand. A board is offered its type's active release when the company forces updates, or
-- when a user the company allows has started the update of that board for that release: the start is
-- the release's id on the device, and both reach gateways through the feed.
ALTER TABLE devices ADD COLUMN firmware_start_release_id integer;
--> statement-breakpoint
DROP TRIGGER feed_devices_update;
--> statement-breakpoint
CREATE TRIGGER feed_devices_update AFTER UPDATE ON devices
WHEN old.company_id IS NOT new.company_id OR old.full_name IS NOT new.full_name OR old.device_type_id IS NOT new.device_type_id
  OR old.status IS NOT new.status OR old.schedule_open IS NOT new.schedule_open OR old.relock_timer IS NOT new.relock_timer
  OR old.board_secret_hash IS NOT new.board_secret_hash OR old.deleted_at IS NOT new.deleted_at
  OR old.firmware_start_release_id IS NOT new.firmware_start_release_id BEGIN
  INSERT INTO gateway_changes (company_id, entity, entity_id, op)
  VALUES (new.company_id, 'device', new.id, CASE WHEN new.deleted_at IS NULL THEN 'upsert' ELSE 'delete' END);
END;
--> statement-breakpoint
-- Gateways learn whether the company forces updates from its company record (an insert already sends it).
CREATE TRIGGER feed_settings_force_firmware AFTER UPDATE ON company_settings
WHEN old.is_force_firmware_update IS NOT new.is_force_firmware_update BEGIN
  INSERT INTO gateway_changes (company_id, entity, entity_id, op) VALUES (new.company_id, 'company', new.company_id, 'upsert');
END;
--> statement-breakpoint
INSERT INTO activity_types (name, type, alert_conditions)
  SELECT 'Firmware Update Started', 'App', '001' WHERE NOT EXISTS (SELECT 1 FROM activity_types WHERE name = 'Firmware Update Started');
