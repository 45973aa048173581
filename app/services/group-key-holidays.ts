import type { OnHolidays } from "~/schemas/holidays";

type Choice = { onHolidays: OnHolidays; holidayCalendarId: number | null };

/**
 * The holiday choice a group key's window follows (decision 0077): the key's own when it is not `ignore`,
 * otherwise its group's. Client-safe: the console's decisions, the feed and the key panel's preview use it.
 */
export function groupKeyHolidayChoice(k: Choice, g: Choice): Choice {
  return k.onHolidays !== "ignore" ? { onHolidays: k.onHolidays, holidayCalendarId: k.holidayCalendarId } : { onHolidays: g.onHolidays, holidayCalendarId: g.holidayCalendarId };
}
