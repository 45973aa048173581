-- D1's activity_logs becomes an outbox (docs/decisions/0048-activity-outbox.md): a console or API audit row
-- waits here until its company's store (a Durable Object) has copied it, and is then deleted. Nothing reads
-- the outbox by filter or sort any more, so only the indexes the drain and the writers' own guards use stay:
-- the primary key, activity_event_uq and activity_company_id_idx.

-- The company's latest first-person-in entry, which the door decision and the gateway feed read, kept
-- beside the outbox instead of looked up in it.
CREATE TABLE `company_first_entries` (
	`company_id` integer PRIMARY KEY NOT NULL,
	`at` integer NOT NULL
);
--> statement-breakpoint
INSERT INTO company_first_entries (company_id, at)
SELECT company_id, max(activity_timestamp) FROM activity_logs
WHERE activity_type_id = (SELECT id FROM activity_types WHERE name = 'Scheduled Open Started')
GROUP BY company_id;
--> statement-breakpoint
DROP TRIGGER IF EXISTS feed_first_entry;
--> statement-breakpoint
CREATE TRIGGER feed_first_entry AFTER INSERT ON activity_logs
WHEN new.activity_type_id = (SELECT id FROM activity_types WHERE name = 'Scheduled Open Started') BEGIN
  INSERT INTO company_first_entries (company_id, at) VALUES (new.company_id, new.activity_timestamp)
    ON CONFLICT (company_id) DO UPDATE SET at = max(at, excluded.at);
  INSERT INTO gateway_changes (company_id, entity, entity_id, op) VALUES (new.company_id, 'scheduledOpen', new.company_id, 'upsert');
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS activity_counts_insert;
--> statement-breakpoint
DROP TRIGGER IF EXISTS activity_counts_update;
--> statement-breakpoint
DROP TRIGGER IF EXISTS activity_counts_delete;
--> statement-breakpoint
DROP TABLE IF EXISTS activity_counts;
--> statement-breakpoint
DROP TABLE IF EXISTS activity_ref_counts;
--> statement-breakpoint
DROP INDEX IF EXISTS activity_company_ts_idx;
--> statement-breakpoint
DROP INDEX IF EXISTS activity_company_op_ts_idx;
--> statement-breakpoint
DROP INDEX IF EXISTS activity_user_ts_idx;
--> statement-breakpoint
DROP INDEX IF EXISTS activity_creator_ts_idx;
--> statement-breakpoint
DROP INDEX IF EXISTS activity_device_ts_idx;
--> statement-breakpoint
DROP INDEX IF EXISTS activity_group_ts_idx;
--> statement-breakpoint
DROP INDEX IF EXISTS activity_type_ts_idx;
--> statement-breakpoint
-- The company stores run the alert engine from now on, over the rows that reach them past this cursor;
-- the platform-wide engine stops where it had read to (or at the newest row, if it never ran).
INSERT OR IGNORE INTO alert_cursor (id, last_activity_id, updated_at) SELECT 1, coalesce(max(id), 0), 0 FROM activity_logs;
