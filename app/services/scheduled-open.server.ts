/**
 * The company's scheduled-open hours (docs/ARCHITECTURE.md §5.2 and §7.2, /scheduleOpen): FPI, the weekly rows and
 * the exceptions. Validated by the access-window core, the same module the gateways evaluate
 * the hours with, and sent to them through the change feed in the same batch as the save.
 */
import { and, asc, eq } from "drizzle-orm";
import type { Core } from "~core";
import { chunkedInserts } from "../../db/seed/batch";
import { HOLIDAY_MSG, type OnHolidays } from "~/schemas/holidays";
import { scheduleErrors, scheduleWindow, SETTINGS_MSG, type ScheduleOpenInput } from "~/schemas/settings";
import { activityInsert } from "~/utils/activity-insert.server";
import { assertCan, companyZone, type Auth } from "~/utils/auth-guards.server";
import { schema, type Db } from "~/utils/db.server";
import { ServiceError } from "~/utils/errors.server";
import { findSettings, SETTINGS_MODULE } from "./settings.server";

const { companySettings: cs, scheduleOpenDays: days, scheduleOpenExceptions: exceptions, timeZones: tz, holidayCalendars: cal } = schema;

const CLOSED = { openWholeDay: false, openTime: "", closeTime: "" };

export type ScheduleOpen = {
  /** False before the first settings save: there is nothing to schedule yet. */
  hasSettings: boolean;
  scheduleOpen: boolean;
  fpi: boolean;
  /** The company's default zone, which the hours are kept in. */
  tz: string;
  week: { day: number; openWholeDay: boolean; openTime: string; closeTime: string }[];
  exceptions: { id: number; date: string; openWholeDay: boolean; openTime: string; closeTime: string }[];
  /** On a holiday of `holidayCalendarId`: the weekly hours as they are, doors kept locked, or the holiday's own hours (decision 0077). */
  onHolidays: OnHolidays;
  holidayCalendarId: number | null;
  /** The company's calendars to choose from. */
  calendars: { id: number; name: string }[];
};

export async function getScheduleOpen(db: Db, auth: Auth): Promise<ScheduleOpen> {
  assertCan(auth, SETTINGS_MODULE);
  const companyId = auth.company.id;
  const [settings, week, rows, calendars] = await db.batch([
    db
      .select({ scheduleOpen: cs.scheduleOpen, fpi: cs.fpi, tz: tz.name, onHolidays: cs.onHolidays, holidayCalendarId: cs.holidayCalendarId })
      .from(cs)
      .leftJoin(tz, eq(tz.id, cs.defaultTimeZoneId))
      .where(eq(cs.companyId, companyId)),
    db.select().from(days).where(eq(days.companyId, companyId)).orderBy(asc(days.day)),
    db.select().from(exceptions).where(eq(exceptions.companyId, companyId)).orderBy(asc(exceptions.date)),
    db.select({ id: cal.id, name: cal.name }).from(cal).where(eq(cal.companyId, companyId)).orderBy(asc(cal.name), asc(cal.id)),
  ]);
  return {
    hasSettings: settings.length > 0,
    scheduleOpen: !!settings[0]?.scheduleOpen,
    fpi: !!settings[0]?.fpi,
    tz: settings[0]?.tz ?? "UTC",
    week: Array.from({ length: 7 }, (_, day) => {
      const row = week.find((r) => r.day === day);
      return { day, ...(row ? { openWholeDay: row.openWholeDay, openTime: row.openTime, closeTime: row.closeTime } : CLOSED) };
    }),
    exceptions: rows.map((e) => ({ id: e.id, date: e.date, openWholeDay: e.openWholeDay, openTime: e.openTime, closeTime: e.closeTime })),
    onHolidays: settings[0]?.onHolidays ?? "ignore",
    holidayCalendarId: settings[0]?.holidayCalendarId ?? null,
    calendars,
  };
}

/** The holiday choice to store, or undefined to keep the stored one; a calendar must be the company's. */
async function holidayChoice(db: Db, companyId: number, input: ScheduleOpenInput): Promise<{ onHolidays: OnHolidays; holidayCalendarId: number | null } | undefined> {
  if (input.on_holidays === undefined) return undefined;
  if (input.on_holidays === "ignore") return { onHolidays: "ignore", holidayCalendarId: null };
  const refuse = (message: string): never => {
    throw new ServiceError(400, message, { fieldErrors: { holiday_calendar_id: [message] } });
  };
  if (input.holiday_calendar_id == null) refuse(HOLIDAY_MSG.calendarRequired);
  const found = await db.query.holidayCalendars.findFirst({ where: and(eq(cal.companyId, companyId), eq(cal.id, input.holiday_calendar_id!)), columns: { id: true } });
  if (!found) refuse(HOLIDAY_MSG.notFound);
  return { onHolidays: input.on_holidays, holidayCalendarId: found!.id };
}

/** Replaces the weekly rows and the exceptions, saves FPI, and tells the gateways. */
export async function saveScheduleOpen(db: Db, auth: Auth, input: ScheduleOpenInput, now: number, core: Core): Promise<void> {
  assertCan(auth, SETTINGS_MODULE, "modify");
  const companyId = auth.company.id;
  const settings = await findSettings(db, companyId);
  if (!settings) throw new ServiceError(409, SETTINGS_MSG.settingsFirst);
  const errors = core.validate(scheduleWindow(input, companyZone(auth)));
  if (errors.length) {
    const fieldErrors = scheduleErrors(errors);
    throw new ServiceError(400, Object.values(fieldErrors)[0][0], { fieldErrors, errorCode: errors[0].code });
  }

  const holidays = await holidayChoice(db, companyId, input);

  await db.batch([
    db
      .update(cs)
      .set({ fpi: input.fpi, ...holidays, updatedAt: now })
      .where(eq(cs.companyId, companyId)),
    db.delete(days).where(eq(days.companyId, companyId)),
    db.insert(days).values(input.schedule_opens.map((d) => ({ companyId, day: d.scheduleDay, openWholeDay: d.openWholeDay, openTime: d.openTime, closeTime: d.closeTime }))),
    db.delete(exceptions).where(eq(exceptions.companyId, companyId)),
    ...chunkedInserts(
      db,
      exceptions,
      input.schedule_exceptions.map((e) => ({ companyId, date: e.exceptionDate, openWholeDay: e.openWholeDay, openTime: e.openTime, closeTime: e.closeTime })),
    ),
    activityInsert(db, { companyId, name: SETTINGS_MSG.scheduleChanged, createdByUserId: auth.user.id, summary: auth.company.name, at: now }),
  ]);
}
