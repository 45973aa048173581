-- Holiday calendars (docs/decisions/0077-holiday-calendars.md). Written by hand.

-- A company's named list of dates; `source` names the public-holiday set it was imported from ('ES', 'ES-CT'), if any.
CREATE TABLE holiday_calendars (
  id integer PRIMARY KEY AUTOINCREMENT NOT NULL,
  company_id integer NOT NULL,
  name text NOT NULL,
  source text,
  created_at integer NOT NULL,
  updated_at integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX holiday_calendars_name_uq ON holiday_calendars (company_id, name);
--> statement-breakpoint
-- One date: the whole day, or open only [open_time, close_time) (null: 00:00 / 24:00).
CREATE TABLE holiday_dates (
  id integer PRIMARY KEY AUTOINCREMENT NOT NULL,
  company_id integer NOT NULL,
  calendar_id integer NOT NULL,
  date text NOT NULL,
  name text NOT NULL DEFAULT '',
  open_time text,
  close_time text
);
--> statement-breakpoint
CREATE UNIQUE INDEX holiday_dates_uq ON holiday_dates (calendar_id, date);
--> statement-breakpoint
-- What follows a calendar: a key (e-key or group key), and the company's scheduled-open hours.
ALTER TABLE ekey_assignments ADD COLUMN holiday_calendar_id integer;
--> statement-breakpoint
ALTER TABLE ekey_assignments ADD COLUMN on_holidays text NOT NULL DEFAULT 'ignore' CHECK (on_holidays IN ('ignore', 'closed', 'holidayHours'));
--> statement-breakpoint
CREATE INDEX ekeys_holiday_calendar_idx ON ekey_assignments (holiday_calendar_id);
--> statement-breakpoint
ALTER TABLE company_settings ADD COLUMN holiday_calendar_id integer;
--> statement-breakpoint
ALTER TABLE company_settings ADD COLUMN on_holidays text NOT NULL DEFAULT 'ignore' CHECK (on_holidays IN ('ignore', 'closed', 'holidayHours'));
--> statement-breakpoint
-- The holidays travel inside the windows (decision 0077), so the scheduled-open window changes with them.
DROP TRIGGER feed_settings_schedule;
--> statement-breakpoint
CREATE TRIGGER feed_settings_schedule AFTER UPDATE ON company_settings
WHEN old.schedule_open IS NOT new.schedule_open OR old.fpi IS NOT new.fpi
  OR old.holiday_calendar_id IS NOT new.holiday_calendar_id OR old.on_holidays IS NOT new.on_holidays BEGIN
  INSERT INTO gateway_changes (company_id, entity, entity_id, op) VALUES (new.company_id, 'scheduledOpen', new.company_id, 'upsert');
END;
--> statement-breakpoint
-- A date added, changed or removed rebuilds every key and scheduled-open window that follows its calendar.
CREATE TRIGGER feed_holiday_dates_insert AFTER INSERT ON holiday_dates BEGIN
  INSERT INTO gateway_changes (company_id, entity, entity_id, op)
    SELECT company_id, 'ekey', id, 'upsert' FROM ekey_assignments WHERE holiday_calendar_id = new.calendar_id AND on_holidays != 'ignore';
  INSERT INTO gateway_changes (company_id, entity, entity_id, op)
    SELECT company_id, 'scheduledOpen', company_id, 'upsert' FROM company_settings WHERE holiday_calendar_id = new.calendar_id AND on_holidays != 'ignore';
END;
--> statement-breakpoint
CREATE TRIGGER feed_holiday_dates_update AFTER UPDATE ON holiday_dates BEGIN
  INSERT INTO gateway_changes (company_id, entity, entity_id, op)
    SELECT company_id, 'ekey', id, 'upsert' FROM ekey_assignments WHERE holiday_calendar_id IN (old.calendar_id, new.calendar_id) AND on_holidays != 'ignore';
  INSERT INTO gateway_changes (company_id, entity, entity_id, op)
    SELECT company_id, 'scheduledOpen', company_id, 'upsert' FROM company_settings WHERE holiday_calendar_id IN (old.calendar_id, new.calendar_id) AND on_holidays != 'ignore';
END;
--> statement-breakpoint
CREATE TRIGGER feed_holiday_dates_delete AFTER DELETE ON holiday_dates BEGIN
  INSERT INTO gateway_changes (company_id, entity, entity_id, op)
    SELECT company_id, 'ekey', id, 'upsert' FROM ekey_assignments WHERE holiday_calendar_id = old.calendar_id AND on_holidays != 'ignore';
  INSERT INTO gateway_changes (company_id, entity, entity_id, op)
    SELECT company_id, 'scheduledOpen', company_id, 'upsert' FROM company_settings WHERE holiday_calendar_id = old.calendar_id AND on_holidays != 'ignore';
END;
--> statement-breakpoint
-- A calendar's changes are audit entries (its dates decide doors).
INSERT INTO activity_types (name, type, alert_conditions, first_section_info, details_section_info)
  SELECT 'Holiday Calendar Created', 'Admin', '100', 'date,trigger,triggeredBy', 'summary' WHERE NOT EXISTS (SELECT 1 FROM activity_types WHERE name = 'Holiday Calendar Created');
--> statement-breakpoint
INSERT INTO activity_types (name, type, alert_conditions, first_section_info, details_section_info)
  SELECT 'Holiday Calendar Modified', 'Admin', '100', 'date,trigger,triggeredBy', 'summary' WHERE NOT EXISTS (SELECT 1 FROM activity_types WHERE name = 'Holiday Calendar Modified');
--> statement-breakpoint
INSERT INTO activity_types (name, type, alert_conditions, first_section_info, details_section_info)
  SELECT 'Holiday Calendar Deleted', 'Admin', '100', 'date,trigger,triggeredBy', 'summary' WHERE NOT EXISTS (SELECT 1 FROM activity_types WHERE name = 'Holiday Calendar Deleted');
