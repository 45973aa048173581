-- Custom fields for users (issue 32, docs/decisions/0095-custom-fields.md). Written by hand.

-- A company's field definitions: key (the API's and the CSV's name), label, type, choices (a JSON array for
-- type 'choice'), required, position in the form, shown as a column of the users list by default.
-- A removed field keeps its row (deleted_at) so its key is not reused by mistake while old exports exist.
CREATE TABLE custom_fields (
  id integer PRIMARY KEY AUTOINCREMENT NOT NULL,
  company_id integer NOT NULL,
  key text NOT NULL CHECK (length(key) BETWEEN 1 AND 40),
  label text NOT NULL CHECK (length(label) BETWEEN 1 AND 60),
  type text NOT NULL CHECK (type IN ('text', 'number', 'date', 'choice')),
  choices text NOT NULL DEFAULT '[]',
  required integer NOT NULL DEFAULT 0,
  show_in_list integer NOT NULL DEFAULT 0,
  position integer NOT NULL DEFAULT 0,
  created_at integer NOT NULL DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)),
  updated_at integer NOT NULL DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)),
  deleted_at integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX custom_fields_company_key_uq ON custom_fields (company_id, key) WHERE deleted_at IS NULL;
--> statement-breakpoint
-- A user's value of a field, as text normalised by type: a number canonical ('12.5'), a date 'YYYY-MM-DD',
-- a choice one of the field's choices; an empty value is no row.
CREATE TABLE user_field_values (
  company_id integer NOT NULL,
  user_id integer NOT NULL,
  field_id integer NOT NULL,
  value text NOT NULL CHECK (length(value) <= 200),
  PRIMARY KEY (user_id, field_id)
);
--> statement-breakpoint
CREATE INDEX user_field_values_search_idx ON user_field_values (company_id, field_id, value);
--> statement-breakpoint
-- A definition's changes are audit entries.
INSERT INTO activity_types (name, type, alert_conditions, first_section_info, details_section_info)
  SELECT 'Custom Field Created', 'Admin', '100', 'date,trigger,triggeredBy', 'summary' WHERE NOT EXISTS (SELECT 1 FROM activity_types WHERE name = 'Custom Field Created');
--> statement-breakpoint
INSERT INTO activity_types (name, type, alert_conditions, first_section_info, details_section_info)
  SELECT 'Custom Field Modified', 'Admin', '100', 'date,trigger,triggeredBy', 'summary' WHERE NOT EXISTS (SELECT 1 FROM activity_types WHERE name = 'Custom Field Modified');
--> statement-breakpoint
INSERT INTO activity_types (name, type, alert_conditions, first_section_info, details_section_info)
  SELECT 'Custom Field Deleted', 'Admin', '100', 'date,trigger,triggeredBy', 'summary' WHERE NOT EXISTS (SELECT 1 FROM activity_types WHERE name = 'Custom Field Deleted');
