-- A wired panic button starts a plan (docs/decisions/0083-lockdown.md). Written by hand.

-- The doors whose panic input (board event `panic.pressed`) starts this plan.
ALTER TABLE lockdown_plans ADD COLUMN panic_door_ids text NOT NULL DEFAULT '[]';
--> statement-breakpoint
-- The board event that started the lockdown in force or last in force, so that the same event sent again
-- (a gateway replaying what it holds) never starts it a second time.
ALTER TABLE company_lockdowns ADD COLUMN trigger_event_id text;
--> statement-breakpoint
INSERT INTO activity_types (name, type, alert_conditions)
  SELECT 'Panic Button Pressed', 'Device', '001' WHERE NOT EXISTS (SELECT 1 FROM activity_types WHERE name = 'Panic Button Pressed');
