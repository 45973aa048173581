-- The phone path (docs/decisions/0028-signed-offline-credentials.md): mobile sessions remember the
-- phone installation that opened them and its language. `sessions.kind` is plain text, so 'mobile'
-- needs no change of its own.
ALTER TABLE `sessions` ADD `installation_id` text;
--> statement-breakpoint
ALTER TABLE `sessions` ADD `lang` text;
--> statement-breakpoint
CREATE INDEX `sessions_installation_idx` ON `sessions` (`user_id`, `installation_id`);
