-- A company's install window and its opting out of staged rollouts (docs/decisions/0094-staged-firmware-rollouts.md). Written by hand.

-- Forced firmware offers only between these local times (HH:mm, in each door's zone; the window may run
-- past midnight); null: any time.
ALTER TABLE company_settings ADD COLUMN firmware_window_start text;
--> statement-breakpoint
ALTER TABLE company_settings ADD COLUMN firmware_window_end text;
--> statement-breakpoint
-- Until this date (YYYY-MM-DD, in each door's zone) the company's boards are in no rollout wave: they keep
-- their type's active release.
ALTER TABLE company_settings ADD COLUMN rollout_deferred_until text;
--> statement-breakpoint
-- Gateways read both from the company record.
CREATE TRIGGER feed_settings_firmware_window AFTER UPDATE ON company_settings
WHEN old.firmware_window_start IS NOT new.firmware_window_start OR old.firmware_window_end IS NOT new.firmware_window_end
  OR old.rollout_deferred_until IS NOT new.rollout_deferred_until BEGIN
  INSERT INTO gateway_changes (company_id, entity, entity_id, op) VALUES (new.company_id, 'company', new.company_id, 'upsert');
END;
