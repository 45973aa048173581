-- Signed webhooks (docs/decisions/0078-webhooks.md). Written by hand.
-- An endpoint of a company: where its chosen event types are posted, signed with `secret`; during a
-- rotation `previous_secret` signs too until `previous_secret_until`. `failing_since` is the first failed
-- attempt after the last success: an endpoint failing for days is disabled (`disabled_reason`).
CREATE TABLE `webhook_endpoints` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`company_id` integer NOT NULL,
	`url` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`event_types` text DEFAULT '[]' NOT NULL,
	`enabled` integer DEFAULT 1 NOT NULL,
	`secret` text NOT NULL,
	`previous_secret` text,
	`previous_secret_until` integer,
	`failing_since` integer,
	`disabled_reason` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `webhook_endpoints_company_idx` ON `webhook_endpoints` (`company_id`, `enabled`);
--> statement-breakpoint
-- One event, written by the alert engine's batch from the activity it reports (or the alert that fired):
-- `source` names that origin, so reading it again writes nothing. `id` is the `webhook-id` receivers see.
CREATE TABLE `webhook_events` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` integer NOT NULL,
	`type` text NOT NULL,
	`source` text NOT NULL,
	`occurred_at` integer NOT NULL,
	`data_json` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `webhook_events_source_uq` ON `webhook_events` (`company_id`, `source`);
--> statement-breakpoint
CREATE INDEX `webhook_events_company_time_idx` ON `webhook_events` (`company_id`, `occurred_at`);
--> statement-breakpoint
-- One event to one endpoint: the outbox the delivery queue is fed from. `state` pending until delivered,
-- or dead after the last retry. `next_attempt_at` is when the sweep sends it to the queue; `claimed_until`
-- keeps a sent one from being sent again while its attempt runs.
CREATE TABLE `webhook_deliveries` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`company_id` integer NOT NULL,
	`endpoint_id` integer NOT NULL,
	`event_id` text NOT NULL,
	`state` text DEFAULT 'pending' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` integer NOT NULL,
	`claimed_until` integer,
	`last_status` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `webhook_deliveries_event_endpoint_uq` ON `webhook_deliveries` (`event_id`, `endpoint_id`);
--> statement-breakpoint
CREATE INDEX `webhook_deliveries_due_idx` ON `webhook_deliveries` (`state`, `next_attempt_at`);
--> statement-breakpoint
CREATE INDEX `webhook_deliveries_endpoint_idx` ON `webhook_deliveries` (`endpoint_id`, `created_at`);
--> statement-breakpoint
-- Every attempt: the delivery log.
CREATE TABLE `webhook_attempts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`delivery_id` integer NOT NULL,
	`endpoint_id` integer NOT NULL,
	`attempted_at` integer NOT NULL,
	`status` integer,
	`latency_ms` integer NOT NULL,
	`response_excerpt` text DEFAULT '' NOT NULL,
	`error` text
);
--> statement-breakpoint
CREATE INDEX `webhook_attempts_delivery_idx` ON `webhook_attempts` (`delivery_id`, `attempted_at`);
--> statement-breakpoint
-- The audit names of an endpoint's changes.
INSERT INTO activity_types (name, type, alert_conditions, audience)
  SELECT 'Webhook Endpoint Created', 'Admin', '100', 'company' WHERE NOT EXISTS (SELECT 1 FROM activity_types WHERE name = 'Webhook Endpoint Created');
--> statement-breakpoint
INSERT INTO activity_types (name, type, alert_conditions, audience)
  SELECT 'Webhook Endpoint Modified', 'Admin', '100', 'company' WHERE NOT EXISTS (SELECT 1 FROM activity_types WHERE name = 'Webhook Endpoint Modified');
--> statement-breakpoint
INSERT INTO activity_types (name, type, alert_conditions, audience)
  SELECT 'Webhook Endpoint Removed', 'Admin', '100', 'company' WHERE NOT EXISTS (SELECT 1 FROM activity_types WHERE name = 'Webhook Endpoint Removed');
--> statement-breakpoint
INSERT INTO activity_types (name, type, alert_conditions, audience)
  SELECT 'Webhook Secret Rotated', 'Admin', '100', 'company' WHERE NOT EXISTS (SELECT 1 FROM activity_types WHERE name = 'Webhook Secret Rotated');
--> statement-breakpoint
INSERT INTO activity_types (name, type, alert_conditions, audience)
  SELECT 'Webhook Endpoint Disabled', 'Admin', '100', 'company' WHERE NOT EXISTS (SELECT 1 FROM activity_types WHERE name = 'Webhook Endpoint Disabled');
