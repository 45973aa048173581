-- A plan names who may start it from the phone app (docs/decisions/0083-lockdown.md). Written by hand.

-- The users, and the users holding these roles, who may start this plan from the phone app (JSON arrays of
-- ids); a user the plan in force names this way may also end it from the phone.
ALTER TABLE lockdown_plans ADD COLUMN phone_trigger_user_ids text NOT NULL DEFAULT '[]';
--> statement-breakpoint
ALTER TABLE lockdown_plans ADD COLUMN phone_trigger_role_ids text NOT NULL DEFAULT '[]';
