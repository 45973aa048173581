-- Each company's activity log policy (decision 0047, stages 2 and 3): the days its store keeps at hand
-- before rows are read from the archive, and how long entries are kept at all (NULL: indefinitely)
-- and what happens to them then. The limits live in app/schemas/settings.ts. Not mirrored to gateways,
-- so no feed trigger.
ALTER TABLE company_settings ADD COLUMN activity_hot_days integer NOT NULL DEFAULT 90;
--> statement-breakpoint
ALTER TABLE company_settings ADD COLUMN activity_retention_days integer;
--> statement-breakpoint
ALTER TABLE company_settings ADD COLUMN activity_retention_action text NOT NULL DEFAULT 'delete';
