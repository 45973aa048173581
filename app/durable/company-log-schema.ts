/**
 * The tables of one company's activity log store (docs/decisions/0047-activity-log-per-company.md).
 * The log's own tables have the D1 columns, indexes and tally triggers verbatim (db/migrations 0000,
 * 0017 and 0023; the update trigger is there for the retention policy's anonymising), so the activity
 * service's queries run here unchanged. The names the log shows live in small copies of `users`,
 * `devices` and `device_groups` (only the columns the log reads) and a full copy of the activity
 * catalogue. Every statement is idempotent: a store at any version runs it all.
 */
export const COMPANY_LOG_SCHEMA = `
CREATE TABLE IF NOT EXISTS activity_logs (
  id integer PRIMARY KEY NOT NULL,
  company_id integer NOT NULL,
  event_id text,
  activity_type_id integer NOT NULL,
  operation_type text NOT NULL,
  created_by_user_id integer,
  target_user_id integer,
  target_device_id integer,
  target_device_group_id integer,
  summary text DEFAULT '' NOT NULL,
  details_json text DEFAULT '{}' NOT NULL,
  gps_location text,
  activity_timestamp integer NOT NULL,
  created_at integer NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS activity_event_uq ON activity_logs (event_id);
CREATE INDEX IF NOT EXISTS activity_company_ts_idx ON activity_logs (company_id, activity_timestamp);
CREATE INDEX IF NOT EXISTS activity_company_op_ts_idx ON activity_logs (company_id, operation_type, activity_timestamp);
CREATE INDEX IF NOT EXISTS activity_user_ts_idx ON activity_logs (company_id, target_user_id, activity_timestamp);
CREATE INDEX IF NOT EXISTS activity_creator_ts_idx ON activity_logs (company_id, created_by_user_id, activity_timestamp);
CREATE INDEX IF NOT EXISTS activity_device_ts_idx ON activity_logs (company_id, target_device_id, activity_timestamp);
CREATE INDEX IF NOT EXISTS activity_group_ts_idx ON activity_logs (company_id, target_device_group_id, activity_timestamp);
CREATE INDEX IF NOT EXISTS activity_type_ts_idx ON activity_logs (company_id, activity_type_id, activity_timestamp);

CREATE TABLE IF NOT EXISTS activity_notes (
  id integer PRIMARY KEY NOT NULL,
  company_id integer NOT NULL,
  activity_id integer NOT NULL,
  user_id integer NOT NULL,
  note_description text NOT NULL,
  created_at integer NOT NULL
);
CREATE INDEX IF NOT EXISTS activity_notes_activity_idx ON activity_notes (activity_id, created_at);

CREATE TABLE IF NOT EXISTS activity_counts (
  company_id integer NOT NULL,
  operation_type text NOT NULL,
  activity_type_id integer NOT NULL,
  n integer NOT NULL DEFAULT 0,
  PRIMARY KEY (company_id, operation_type, activity_type_id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS activity_ref_counts (
  company_id integer NOT NULL,
  kind text NOT NULL,
  ref_id integer NOT NULL,
  n integer NOT NULL DEFAULT 0,
  PRIMARY KEY (company_id, kind, ref_id)
) WITHOUT ROWID;
CREATE TRIGGER IF NOT EXISTS activity_counts_insert AFTER INSERT ON activity_logs BEGIN
  INSERT INTO activity_counts (company_id, operation_type, activity_type_id, n) VALUES (new.company_id, new.operation_type, new.activity_type_id, 1)
    ON CONFLICT (company_id, operation_type, activity_type_id) DO UPDATE SET n = n + 1;
  INSERT INTO activity_ref_counts (company_id, kind, ref_id, n) VALUES
    (new.company_id, 'creator', coalesce(new.created_by_user_id, 0), 1),
    (new.company_id, 'target', coalesce(new.target_user_id, 0), 1),
    (new.company_id, 'device', coalesce(new.target_device_id, 0), 1),
    (new.company_id, 'group', coalesce(new.target_device_group_id, 0), 1)
    ON CONFLICT (company_id, kind, ref_id) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER IF NOT EXISTS activity_counts_delete AFTER DELETE ON activity_logs BEGIN
  UPDATE activity_counts SET n = n - 1
    WHERE company_id = old.company_id AND operation_type = old.operation_type AND activity_type_id = old.activity_type_id;
  UPDATE activity_ref_counts SET n = n - 1 WHERE company_id = old.company_id AND (
    (kind = 'creator' AND ref_id = coalesce(old.created_by_user_id, 0)) OR (kind = 'target' AND ref_id = coalesce(old.target_user_id, 0))
    OR (kind = 'device' AND ref_id = coalesce(old.target_device_id, 0)) OR (kind = 'group' AND ref_id = coalesce(old.target_device_group_id, 0)));
END;

CREATE TABLE IF NOT EXISTS activity_types (
  id integer PRIMARY KEY NOT NULL,
  name text NOT NULL UNIQUE,
  type text NOT NULL,
  alert_conditions text DEFAULT '000' NOT NULL,
  first_section_info text DEFAULT '' NOT NULL,
  details_section_info text DEFAULT '' NOT NULL
);
CREATE TABLE IF NOT EXISTS users (id integer PRIMARY KEY NOT NULL, company_id integer NOT NULL, display_name text NOT NULL);
CREATE TABLE IF NOT EXISTS devices (
  id integer PRIMARY KEY NOT NULL,
  company_id integer NOT NULL,
  display_name text NOT NULL,
  full_name text NOT NULL,
  sensor1_open_name text NOT NULL,
  sensor1_close_name text NOT NULL,
  sensor2_open_name text NOT NULL,
  sensor2_close_name text NOT NULL
);
CREATE TABLE IF NOT EXISTS device_groups (id integer PRIMARY KEY NOT NULL, company_id integer NOT NULL, full_name text NOT NULL, display_name text NOT NULL);

CREATE TRIGGER IF NOT EXISTS activity_counts_update AFTER UPDATE OF company_id, operation_type, activity_type_id, created_by_user_id, target_user_id, target_device_id, target_device_group_id
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

-- The archive (docs/decisions/0049-activity-hot-window-archive.md): UTC days (activity_timestamp / 86400000)
-- with rows or notes the archive lacks, and the days archived: how many rows, whether the store has
-- dropped them (past the hot window), whether the retention policy has anonymised them.
CREATE TABLE IF NOT EXISTS archive_pending (day integer PRIMARY KEY NOT NULL) WITHOUT ROWID;
CREATE TRIGGER IF NOT EXISTS archive_pending_row AFTER INSERT ON activity_logs BEGIN
  INSERT OR IGNORE INTO archive_pending (day) VALUES (new.activity_timestamp / 86400000);
END;
CREATE TRIGGER IF NOT EXISTS archive_pending_note AFTER INSERT ON activity_notes BEGIN
  INSERT OR IGNORE INTO archive_pending (day) SELECT activity_timestamp / 86400000 FROM activity_logs WHERE id = new.activity_id;
END;
CREATE TABLE IF NOT EXISTS archive_days (
  day integer PRIMARY KEY NOT NULL,
  rows integer NOT NULL,
  pruned integer NOT NULL DEFAULT 0,
  anonymised integer NOT NULL DEFAULT 0
) WITHOUT ROWID;

-- Rows copied from D1 that the alert engine has still to read, in the order they were copied. Rows written
-- here (ids from STORE_ID_BASE up, in order) need no arrival row: the engine follows them by id
-- (store_state 'alerted_id'). A plain rowid: the engine deletes what it read, so no seq is ever reused
-- while a read of it is pending, and AUTOINCREMENT would write sqlite_sequence once more per row.
CREATE TABLE IF NOT EXISTS alert_arrivals (seq integer PRIMARY KEY, activity_id integer NOT NULL);

-- How far this store has followed D1's name changes (log_name_changes.seq), and whose store it is.
CREATE TABLE IF NOT EXISTS store_state (key text PRIMARY KEY NOT NULL, value integer NOT NULL) WITHOUT ROWID;
`;

/** The name columns copied from D1, per table: the log joins these and nothing else. */
export const NAME_COLUMNS = {
  users: ["id", "company_id", "display_name"],
  devices: ["id", "company_id", "display_name", "full_name", "sensor1_open_name", "sensor1_close_name", "sensor2_open_name", "sensor2_close_name"],
  device_groups: ["id", "company_id", "full_name", "display_name"],
} as const;
export type NameTable = keyof typeof NAME_COLUMNS;

export const LOG_COLUMNS = [
  "id",
  "company_id",
  "event_id",
  "activity_type_id",
  "operation_type",
  "created_by_user_id",
  "target_user_id",
  "target_device_id",
  "target_device_group_id",
  "summary",
  "details_json",
  "gps_location",
  "activity_timestamp",
  "created_at",
] as const;
export const NOTE_COLUMNS = ["id", "company_id", "activity_id", "user_id", "note_description", "created_at"] as const;
export const TYPE_COLUMNS = ["id", "name", "type", "alert_conditions", "first_section_info", "details_section_info"] as const;

/**
 * Ids of rows written in a store rather than copied from D1 (gateway and phone events) start above any id
 * D1's sequence will reach, so the two never meet in a store; both stay exact in JavaScript (below 2^53).
 */
export const STORE_ID_BASE = 2 ** 52;
/** Rows one `ingest` call takes: a gateway batch (at most 1,000 events) at most. */
export const INGEST_LIMIT = 1_000;
/** A row to write in a store: the log's columns but its id (the store gives it one). */
export type IngestRow = { [K in Exclude<(typeof LOG_COLUMNS)[number], "id">]: string | number | null };
