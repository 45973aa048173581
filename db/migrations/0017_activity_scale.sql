-- The activity log at a million rows, counted without scanning it (docs/decisions/0036-activity-counts.md).
-- The database keeps two tallies of activity_logs in the same statement as every insert, update or delete:
--   activity_counts      rows per (company, operation type, activity type): the total and the trigger and
--                        activity filters, alone or together, are a sum over a few hundred rows;
--   activity_ref_counts  rows per (company, kind, referenced id), kind being creator, target, device or
--                        group and 0 standing for none: a person's, device's or group's filter count, and
--                        the sizes a name sort walks to find its page without sorting the log.
-- Display names are not copied, so a rename changes nothing here.
CREATE TABLE `activity_counts` (
	`company_id` integer NOT NULL,
	`operation_type` text NOT NULL,
	`activity_type_id` integer NOT NULL,
	`n` integer NOT NULL DEFAULT 0,
	PRIMARY KEY (`company_id`, `operation_type`, `activity_type_id`)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE TABLE `activity_ref_counts` (
	`company_id` integer NOT NULL,
	`kind` text NOT NULL,
	`ref_id` integer NOT NULL,
	`n` integer NOT NULL DEFAULT 0,
	PRIMARY KEY (`company_id`, `kind`, `ref_id`)
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO activity_counts (company_id, operation_type, activity_type_id, n)
SELECT company_id, operation_type, activity_type_id, count(*) FROM activity_logs GROUP BY company_id, operation_type, activity_type_id;
--> statement-breakpoint
INSERT INTO activity_ref_counts (company_id, kind, ref_id, n)
SELECT company_id, 'creator', coalesce(created_by_user_id, 0), count(*) FROM activity_logs GROUP BY company_id, coalesce(created_by_user_id, 0)
UNION ALL SELECT company_id, 'target', coalesce(target_user_id, 0), count(*) FROM activity_logs GROUP BY company_id, coalesce(target_user_id, 0)
UNION ALL SELECT company_id, 'device', coalesce(target_device_id, 0), count(*) FROM activity_logs GROUP BY company_id, coalesce(target_device_id, 0)
UNION ALL SELECT company_id, 'group', coalesce(target_device_group_id, 0), count(*) FROM activity_logs GROUP BY company_id, coalesce(target_device_group_id, 0);
--> statement-breakpoint
CREATE TRIGGER activity_counts_insert AFTER INSERT ON activity_logs BEGIN
  INSERT INTO activity_counts (company_id, operation_type, activity_type_id, n) VALUES (new.company_id, new.operation_type, new.activity_type_id, 1)
    ON CONFLICT (company_id, operation_type, activity_type_id) DO UPDATE SET n = n + 1;
  INSERT INTO activity_ref_counts (company_id, kind, ref_id, n) VALUES
    (new.company_id, 'creator', coalesce(new.created_by_user_id, 0), 1),
    (new.company_id, 'target', coalesce(new.target_user_id, 0), 1),
    (new.company_id, 'device', coalesce(new.target_device_id, 0), 1),
    (new.company_id, 'group', coalesce(new.target_device_group_id, 0), 1)
    ON CONFLICT (company_id, kind, ref_id) DO UPDATE SET n = n + 1;
END;
--> statement-breakpoint
CREATE TRIGGER activity_counts_delete AFTER DELETE ON activity_logs BEGIN
  UPDATE activity_counts SET n = n - 1
    WHERE company_id = old.company_id AND operation_type = old.operation_type AND activity_type_id = old.activity_type_id;
  UPDATE activity_ref_counts SET n = n - 1 WHERE company_id = old.company_id AND (
    (kind = 'creator' AND ref_id = coalesce(old.created_by_user_id, 0)) OR (kind = 'target' AND ref_id = coalesce(old.target_user_id, 0))
    OR (kind = 'device' AND ref_id = coalesce(old.target_device_id, 0)) OR (kind = 'group' AND ref_id = coalesce(old.target_device_group_id, 0)));
END;
--> statement-breakpoint
-- A moved row leaves its old tallies and joins its new ones (log rows are not edited today; this keeps the tallies true if they are).
CREATE TRIGGER activity_counts_update AFTER UPDATE OF company_id, operation_type, activity_type_id, created_by_user_id, target_user_id, target_device_id, target_device_group_id
ON activity_logs BEGIN
  UPDATE activity_counts SET n = n - 1
    WHERE company_id = old.company_id AND operation_type = old.operation_type AND activity_type_id = old.activity_type_id;
  INSERT INTO activity_counts (company_id, operation_type, activity_type_id, n) VALUES (new.company_id, new.operation_type, new.activity_type_id, 1)
    ON CONFLICT (company_id, operation_type, activity_type_id) DO UPDATE SET n = n + 1;
  UPDATE activity_ref_counts SET n = n - 1 WHERE company_id = old.company_id AND (
    (kind = 'creator' AND ref_id = coalesce(old.created_by_user_id, 0)) OR (kind = 'target' AND ref_id = coalesce(old.target_user_id, 0))
    OR (kind = 'device' AND ref_id = coalesce(old.target_device_id, 0)) OR (kind = 'group' AND ref_id = coalesce(old.target_device_group_id, 0)));
  INSERT INTO activity_ref_counts (company_id, kind, ref_id, n) VALUES
    (new.company_id, 'creator', coalesce(new.created_by_user_id, 0), 1),
    (new.company_id, 'target', coalesce(new.target_user_id, 0), 1),
    (new.company_id, 'device', coalesce(new.target_device_id, 0), 1),
    (new.company_id, 'group', coalesce(new.target_device_group_id, 0), 1)
    ON CONFLICT (company_id, kind, ref_id) DO UPDATE SET n = n + 1;
END;
