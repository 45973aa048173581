-- Alert schedules follow a holiday calendar by choice (docs/decisions/0077-holiday-calendars.md). Written by hand.

-- The holiday calendar the alert's custom schedule follows and how, as a key's (migration 0043): on a holiday
-- of the calendar the alert fires as on any day (ignore), not at all or only within the holiday's open hours
-- (closed), or within the holiday's open hours instead of its own (holidayHours).
ALTER TABLE alerts ADD COLUMN holiday_calendar_id integer;
--> statement-breakpoint
ALTER TABLE alerts ADD COLUMN on_holidays text NOT NULL DEFAULT 'ignore' CHECK (on_holidays IN ('ignore', 'closed', 'holidayHours'));
