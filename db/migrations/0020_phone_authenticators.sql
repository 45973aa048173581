-- The biometric requirement enforced (docs/decisions/0039-biometric-claim.md): each phone installation
-- registers its platform authenticator's public key with the console, and the console verifies a
-- WebAuthn assertion against it before it signs credentials for a company that requires biometrics.
CREATE TABLE `phone_authenticators` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`company_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`installation_id` text NOT NULL,
	`credential_id` text NOT NULL,
	`public_key` text NOT NULL,
	`algorithm` integer NOT NULL,
	`sign_count` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL,
	`last_used_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `phone_authenticators_installation_idx` ON `phone_authenticators` (`user_id`, `installation_id`);
--> statement-breakpoint
CREATE INDEX `phone_authenticators_company_idx` ON `phone_authenticators` (`company_id`);
--> statement-breakpoint
-- Challenges the console issued to a mobile session: single use (deleted when used) and short-lived.
CREATE TABLE `webauthn_challenges` (
	`challenge` text PRIMARY KEY NOT NULL,
	`session_id` text NOT NULL,
	`purpose` text NOT NULL,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `webauthn_challenges_session_idx` ON `webauthn_challenges` (`session_id`);
--> statement-breakpoint
-- Boards learn whether their company requires biometrics from the company record of the feed.
CREATE TRIGGER feed_settings_biometric AFTER UPDATE ON company_settings
WHEN old.biometric_security IS NOT new.biometric_security BEGIN
  INSERT INTO gateway_changes (company_id, entity, entity_id, op) VALUES (new.company_id, 'company', new.company_id, 'upsert');
END;
--> statement-breakpoint
INSERT INTO activity_types (name, type, alert_conditions) VALUES ('Phone Biometric Registered', 'App', '010');
