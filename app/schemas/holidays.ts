import { z } from "zod";
import { nameText } from "./text";
import type { HolidayDate, HolidayFields } from "~core";

/**
 * Holiday calendars (issue 31, decision 0077): a company's named dates, whole days or with open hours
 * ("closes at 14:00"), imported from a country's or region's public holidays and editable after. Keys and the
 * company's scheduled-open hours follow one calendar; the window they make carries `onHolidays` and the
 * calendar's dates it can reach (`holidayFields`), and the core decides.
 */
export const HOLIDAY_MSG = {
  nameRequired: "Calendar name is required",
  nameTaken: "A calendar with this name already exists",
  created: "Calendar created successfully",
  modified: "Calendar modified successfully",
  removed: "Calendar deleted successfully",
  notFound: "The provided calendar is invalid",
  dateInvalid: "Enter a valid date",
  dateTaken: "This date is already in the calendar",
  dateSaved: "Date saved successfully",
  dateRemoved: "Date removed successfully",
  dateNotFound: "The provided date is invalid",
  timeInvalid: "Enter a time as HH:MM",
  closeNotAfterOpen: "The closing time must be after the opening time",
  tooManyDates: "A calendar holds at most 400 dates",
  sourceInvalid: "Choose a country or region",
  yearInvalid: "Choose a year between 2025 and 2035",
  imported: "Public holidays imported successfully",
  calendarRequired: "Choose a holiday calendar",
} as const;

export const ON_HOLIDAYS = ["ignore", "closed", "holidayHours"] as const;
export type OnHolidays = (typeof ON_HOLIDAYS)[number];
/** Most dates one calendar holds: a window carries at most this many (decision 0077, consequences). */
export const MAX_CALENDAR_DATES = 400;
export const HOLIDAY_NAME_MAX = 80;
/** The years the public-holiday data covers (scripts/gen-public-holidays.mjs). */
export const FIRST_IMPORT_YEAR = 2025;
export const LAST_IMPORT_YEAR = 2035;

const isoDate = z
  .string({ required_error: HOLIDAY_MSG.dateInvalid, invalid_type_error: HOLIDAY_MSG.dateInvalid })
  .trim()
  .refine((s) => /^\d{4}-\d{2}-\d{2}$/.test(s) && !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s), HOLIDAY_MSG.dateInvalid);
/** `HH:MM` (or `HH:MM:00`); absent is none. Forms post empty fields as absent (Conform). */
const timeOfDay = z
  .string({ invalid_type_error: HOLIDAY_MSG.timeInvalid })
  .trim()
  .regex(/^([01]\d|2[0-3]):[0-5]\d(:00)?$/, HOLIDAY_MSG.timeInvalid)
  .transform((s) => s.slice(0, 5))
  .nullish();

export const calendarFormSchema = z.object({ name: nameText("Calendar name", 100, HOLIDAY_MSG.nameRequired) });
export type CalendarInput = z.output<typeof calendarFormSchema>;

/** A date of a calendar; `closeTime` alone ("closes at 14:00") opens from 00:00. */
const holidayDateFields = z.object({
  date: isoDate,
  name: z
    .string()
    .trim()
    .max(HOLIDAY_NAME_MAX, `Holiday name is too long (at most ${HOLIDAY_NAME_MAX} characters)`)
    .nullish()
    .transform((v) => v ?? ""),
  openTime: timeOfDay,
  closeTime: timeOfDay,
});
/** A date's hours in order; `extra`: more fields of the same body (the admin API's calendarId). */
export const holidayDateSchemaWith = <T extends z.ZodRawShape>(extra: T) =>
  holidayDateFields.extend(extra).refine((d) => !d.openTime || !d.closeTime || d.openTime < d.closeTime, { message: HOLIDAY_MSG.closeNotAfterOpen, path: ["closeTime"] });
export const holidayDateSchema = holidayDateSchemaWith({});
export type HolidayDateInput = z.output<typeof holidayDateSchema>;

/** Import a public-holiday set (`ES`, `ES-MD`) for a year into a calendar. */
export const importSchema = z.object({
  source: z
    .string({ required_error: HOLIDAY_MSG.sourceInvalid })
    .trim()
    .regex(/^[A-Z]{2}(-[A-Z]{1,3})?$/, HOLIDAY_MSG.sourceInvalid),
  year: z.coerce
    .number({ invalid_type_error: HOLIDAY_MSG.yearInvalid })
    .int(HOLIDAY_MSG.yearInvalid)
    .min(FIRST_IMPORT_YEAR, HOLIDAY_MSG.yearInvalid)
    .max(LAST_IMPORT_YEAR, HOLIDAY_MSG.yearInvalid),
});
export type ImportInput = z.output<typeof importSchema>;

/** The add page: a name, and optionally a public-holiday set to fill it with. */
export const addCalendarSchema = calendarFormSchema.extend({
  source: importSchema.shape.source.nullish(),
  year: importSchema.shape.year.nullish(),
});
export type AddCalendarInput = z.output<typeof addCalendarSchema>;

/** A stored date as the core reads it (absent open/close are 00:00 / 24:00). */
export type StoredHolidayDate = { date: string; name: string; openTime: string | null; closeTime: string | null };

/**
 * The holiday fields of a window that follows a calendar (decision 0077): `onHolidays` and only the dates the
 * window can reach, inside its own date range (`from`..`to`, either open), sorted. A window that ignores
 * holidays gets no fields at all, so it is byte for byte what it was before calendars existed.
 */
export function holidayFields(onHolidays: OnHolidays, dates: readonly StoredHolidayDate[] | undefined, from: string | null = null, to: string | null = null): HolidayFields {
  if (onHolidays === "ignore" || !dates) return {};
  const holidays: HolidayDate[] = dates
    .filter((d) => (!from || d.date >= from) && (!to || d.date <= to))
    .sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0))
    .map((d) => ({ date: d.date, ...(d.name ? { name: d.name } : {}), ...(d.openTime ? { openTime: d.openTime } : {}), ...(d.closeTime ? { closeTime: d.closeTime } : {}) }));
  return { onHolidays, holidays };
}
