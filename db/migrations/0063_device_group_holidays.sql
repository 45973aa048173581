-- Device-group schedules follow a holiday calendar by the group's choice (docs/decisions/0077-holiday-calendars.md). Written by hand.

-- The holiday calendar the group's schedule follows and how, as a key's (migration 0043): a group key whose own
-- choice is ignore follows its group's.
ALTER TABLE device_groups ADD COLUMN holiday_calendar_id integer;
--> statement-breakpoint
ALTER TABLE device_groups ADD COLUMN on_holidays text NOT NULL DEFAULT 'ignore' CHECK (on_holidays IN ('ignore', 'closed', 'holidayHours'));
--> statement-breakpoint
-- The group's choice is part of its keys' windows: changing it re-sends them (a 'group' change re-sends the group's keys).
DROP TRIGGER feed_groups_update;
--> statement-breakpoint
CREATE TRIGGER feed_groups_update AFTER UPDATE ON device_groups
WHEN old.sch_monday IS NOT new.sch_monday OR old.sch_tuesday IS NOT new.sch_tuesday OR old.sch_wednesday IS NOT new.sch_wednesday
  OR old.sch_thursday IS NOT new.sch_thursday OR old.sch_friday IS NOT new.sch_friday OR old.sch_saturday IS NOT new.sch_saturday
  OR old.sch_sunday IS NOT new.sch_sunday OR old.start_at IS NOT new.start_at OR old.end_at IS NOT new.end_at
  OR old.is_all_day IS NOT new.is_all_day OR old.time_zone_id IS NOT new.time_zone_id OR old.status IS NOT new.status
  OR old.deleted_at IS NOT new.deleted_at OR old.full_name IS NOT new.full_name OR old.company_id IS NOT new.company_id
  OR old.holiday_calendar_id IS NOT new.holiday_calendar_id OR old.on_holidays IS NOT new.on_holidays BEGIN
  INSERT INTO gateway_changes (company_id, entity, entity_id, op)
  VALUES (new.company_id, 'group', new.id, CASE WHEN new.deleted_at IS NULL THEN 'upsert' ELSE 'delete' END);
END;
--> statement-breakpoint
-- A date added, changed or removed also rebuilds the keys of every live group that follows its calendar.
CREATE TRIGGER feed_holiday_dates_groups_insert AFTER INSERT ON holiday_dates BEGIN
  INSERT INTO gateway_changes (company_id, entity, entity_id, op)
    SELECT company_id, 'group', id, 'upsert' FROM device_groups WHERE holiday_calendar_id = new.calendar_id AND on_holidays != 'ignore' AND deleted_at IS NULL;
END;
--> statement-breakpoint
CREATE TRIGGER feed_holiday_dates_groups_update AFTER UPDATE ON holiday_dates BEGIN
  INSERT INTO gateway_changes (company_id, entity, entity_id, op)
    SELECT company_id, 'group', id, 'upsert' FROM device_groups WHERE holiday_calendar_id IN (old.calendar_id, new.calendar_id) AND on_holidays != 'ignore' AND deleted_at IS NULL;
END;
--> statement-breakpoint
CREATE TRIGGER feed_holiday_dates_groups_delete AFTER DELETE ON holiday_dates BEGIN
  INSERT INTO gateway_changes (company_id, entity, entity_id, op)
    SELECT company_id, 'group', id, 'upsert' FROM device_groups WHERE holiday_calendar_id = old.calendar_id AND on_holidays != 'ignore' AND deleted_at IS NULL;
END;
