-- The activity log at a million rows (docs/decisions/0032-activity-log-at-scale.md).
-- "Trigger" ascending reads operation type ascending but time and id descending; SQLite walks an
-- index in one direction only, so this order gets its own index (descending is the existing
-- activity_company_op_ts_idx walked backwards, its rowid standing in for id).
CREATE INDEX IF NOT EXISTS `activity_company_op_ts_desc_idx` ON `activity_logs` (`company_id`, `operation_type`, `activity_timestamp` DESC, `id` DESC);
