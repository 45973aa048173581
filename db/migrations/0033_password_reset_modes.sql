-- Password reset security acts (docs/decisions/0062-password-reset-modes-and-text-messages.md). Written by hand.

-- Mode 'admin': when the user asked for a reset that a super admin has not yet approved (null: none waiting).
ALTER TABLE users ADD COLUMN password_reset_requested_at integer;
--> statement-breakpoint
-- Mode 'text': the hash of the code texted to the user's phone; the link sets a password only with it.
ALTER TABLE password_reset_tokens ADD COLUMN code_hash text;
--> statement-breakpoint
ALTER TABLE password_reset_tokens ADD COLUMN code_attempts integer NOT NULL DEFAULT 0;
--> statement-breakpoint
INSERT INTO activity_types (name, type, alert_conditions)
  SELECT 'Password Reset Requested', 'Admin', '010' WHERE NOT EXISTS (SELECT 1 FROM activity_types WHERE name = 'Password Reset Requested');
--> statement-breakpoint
INSERT INTO activity_types (name, type, alert_conditions)
  SELECT 'Suspicious Password Reset', 'Admin', '010' WHERE NOT EXISTS (SELECT 1 FROM activity_types WHERE name = 'Suspicious Password Reset');
--> statement-breakpoint
INSERT INTO activity_types (name, type, alert_conditions)
  SELECT 'Text Message Not Delivered', 'Admin', '010' WHERE NOT EXISTS (SELECT 1 FROM activity_types WHERE name = 'Text Message Not Delivered');
