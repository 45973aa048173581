/**
 * Holiday calendars (issue 31, decision 0077): a company's named dates, whole days or with open hours,
 * filled from a country's or region's public holidays and edited after. Kept with the company's settings
 * (module company_settings); keys, the scheduled-open hours and alert schedules follow a calendar. Every date written or
 * removed reaches the gateways by itself: the triggers of db/migrations/0043_holiday_calendars.sql queue a
 * feed change for each key and scheduled-open window that follows the calendar. Signed credentials are
 * issued from the current windows (decision 0028), so the next one a phone fetches carries the new dates.
 */
import { and, asc, count, desc, eq, inArray, sql } from "drizzle-orm";
import { HOLIDAY_MSG, MAX_CALENDAR_DATES, type AddCalendarInput, type CalendarInput, type HolidayDateInput, type ImportInput, type StoredHolidayDate } from "~/schemas/holidays";
import { activityInsert } from "~/utils/activity-insert.server";
import { assertCan, type Auth } from "~/utils/auth-guards.server";
import { inChunks, schema, type Db } from "~/utils/db.server";
import { notFound, ServiceError } from "~/utils/errors.server";
import { inCompany } from "~/utils/tenant.server";
import { publicHolidays } from "./public-holidays/index.server";

const c = schema.holidayCalendars;
const h = schema.holidayDates;
const MODULE = "company_settings";

export type CalendarRow = { id: number; name: string; source: string | null; dates: number; updatedAt: number };
export type HolidayDateRow = StoredHolidayDate & { id: number };
export type CalendarDetails = { id: number; name: string; source: string | null; dates: HolidayDateRow[] };

const datesIn = sql<number>`(select count(*) from holiday_dates where holiday_dates.calendar_id = holiday_calendars.id)`;
export const CALENDAR_SORTS = { name: c.name, dates: datesIn, updatedAt: c.updatedAt } as const;

export async function listCalendars(
  db: Db,
  auth: Auth,
  opts: { sort?: { key: string; desc: boolean }; page?: { offset: number; limit: number } } = {},
): Promise<{ rows: CalendarRow[]; total: number }> {
  assertCan(auth, MODULE);
  const key = opts.sort && opts.sort.key in CALENDAR_SORTS ? (opts.sort.key as keyof typeof CALENDAR_SORTS) : "name";
  const dir = opts.sort?.desc ? desc : asc;
  const base = db
    .select({ id: c.id, name: c.name, source: c.source, dates: datesIn, updatedAt: c.updatedAt })
    .from(c)
    .where(inCompany(c, auth))
    .orderBy(dir(CALENDAR_SORTS[key]), asc(c.id));
  const [rows, totals] = await db.batch([opts.page ? base.limit(opts.page.limit).offset(opts.page.offset) : base, db.select({ n: count() }).from(c).where(inCompany(c, auth))]);
  return { rows: rows.map((r) => ({ ...r, dates: Number(r.dates) })), total: totals[0]?.n ?? 0 };
}

/** The calendars a key or the scheduled-open hours may follow (whoever may set those may read the names). */
export async function calendarOptions(db: Db, auth: Auth): Promise<{ id: number; name: string }[]> {
  assertCan(auth, ["users", MODULE]);
  return calendarNames(db, auth);
}

/** The company's calendars by name, unguarded: for a page whose own guard lets its editor choose one (the alert form). */
export async function calendarNames(db: Db, auth: Auth): Promise<{ id: number; name: string }[]> {
  return db.select({ id: c.id, name: c.name }).from(c).where(inCompany(c, auth)).orderBy(asc(c.name));
}

/**
 * The dates of these calendars, read at once (one statement per 90 calendars, none for no calendar), for
 * callers that build many windows at a time (the alert engine's page of alerts): `datesOf(id)` is undefined
 * for a null id and empty for a calendar without dates.
 */
export async function datesOfCalendars(db: Db, ids: (number | null)[]): Promise<(calendarId: number | null) => StoredHolidayDate[] | undefined> {
  const wanted = [...new Set(ids.filter((id): id is number => id != null))];
  const rows = await inChunks(wanted, (part) =>
    db.select({ calendarId: h.calendarId, date: h.date, name: h.name, openTime: h.openTime, closeTime: h.closeTime }).from(h).where(inArray(h.calendarId, part)),
  );
  const byCalendar = new Map<number, StoredHolidayDate[]>();
  for (const { calendarId, ...d } of rows) (byCalendar.get(calendarId) ?? byCalendar.set(calendarId, []).get(calendarId)!).push(d);
  return (id) => (id == null ? undefined : (byCalendar.get(id) ?? []));
}

/** The calendars with their dates, for the e-key panel's preview (the core decides in the browser too). */
export async function calendarsWithDates(db: Db, auth: Auth): Promise<{ id: number; name: string; dates: StoredHolidayDate[] }[]> {
  const calendars = await calendarOptions(db, auth);
  const rows = await db
    .select({ calendarId: h.calendarId, date: h.date, name: h.name, openTime: h.openTime, closeTime: h.closeTime })
    .from(h)
    .where(inCompany(h, auth))
    .orderBy(asc(h.date));
  return calendars.map((cal) => ({ ...cal, dates: rows.filter((r) => r.calendarId === cal.id).map(({ calendarId: _, ...d }) => d) }));
}

async function findCalendar(db: Db, auth: Auth, id: number) {
  if (!Number.isSafeInteger(id) || id <= 0) notFound(HOLIDAY_MSG.notFound);
  return (await db.query.holidayCalendars.findFirst({ where: inCompany(c, auth, eq(c.id, id)) })) ?? notFound(HOLIDAY_MSG.notFound);
}

export async function getCalendar(db: Db, auth: Auth, id: number): Promise<CalendarDetails> {
  assertCan(auth, MODULE);
  const cal = await findCalendar(db, auth, id);
  const dates = await db
    .select({ id: h.id, date: h.date, name: h.name, openTime: h.openTime, closeTime: h.closeTime })
    .from(h)
    .where(inCompany(h, auth, eq(h.calendarId, cal.id)))
    .orderBy(asc(h.date));
  return { id: cal.id, name: cal.name, source: cal.source, dates };
}

async function assertNameFree(db: Db, auth: Auth, name: string, exceptId?: number) {
  const taken = await db
    .select({ id: c.id })
    .from(c)
    .where(inCompany(c, auth, sql`lower(${c.name}) = ${name.toLowerCase()}`))
    .limit(2);
  if (taken.some((r) => r.id !== exceptId)) throw new ServiceError(422, HOLIDAY_MSG.nameTaken, { fieldErrors: { name: [HOLIDAY_MSG.nameTaken] } });
}

function importedDates(input: ImportInput): StoredHolidayDate[] {
  const dates = publicHolidays(input.source, input.year);
  if (!dates) throw new ServiceError(400, HOLIDAY_MSG.sourceInvalid, { fieldErrors: { source: [HOLIDAY_MSG.sourceInvalid] } });
  return dates;
}

const audit = (auth: Auth, name: string, summary: string, now: number) => ({ companyId: auth.company.id, name, createdByUserId: auth.user.id, summary, at: now });

/** A new calendar, filled with a public-holiday set when the input names one. */
export async function addCalendar(db: Db, auth: Auth, input: AddCalendarInput, now: number): Promise<{ message: string; id: number }> {
  assertCan(auth, MODULE, "add");
  await assertNameFree(db, auth, input.name);
  const imported = input.source ? importedDates({ source: input.source, year: input.year ?? new Date(now).getUTCFullYear() }) : [];
  const companyId = auth.company.id;
  const [inserted] = await db.batch([
    db
      .insert(c)
      .values({ companyId, name: input.name, source: input.source ?? null, createdAt: now, updatedAt: now })
      .returning({ id: c.id }),
    ...imported.map((d) =>
      db.insert(h).values({
        companyId,
        calendarId: sql`(select max(id) from holiday_calendars where company_id = ${companyId})`,
        date: d.date,
        name: d.name,
      }),
    ),
    activityInsert(db, audit(auth, "Holiday Calendar Created", input.name, now)),
  ]);
  return { message: HOLIDAY_MSG.created, id: inserted[0].id };
}

export async function renameCalendar(db: Db, auth: Auth, id: number, input: CalendarInput, now: number): Promise<{ message: string }> {
  assertCan(auth, MODULE, "modify");
  const cal = await findCalendar(db, auth, id);
  await assertNameFree(db, auth, input.name, cal.id);
  await db.batch([
    db
      .update(c)
      .set({ name: input.name, updatedAt: now })
      .where(inCompany(c, auth, eq(c.id, cal.id))),
    activityInsert(db, audit(auth, "Holiday Calendar Modified", input.name, now)),
  ]);
  return { message: HOLIDAY_MSG.modified };
}

/** Deletes a calendar; what followed it goes back to ignoring holidays (and the gateways are told, by the triggers). */
export async function deleteCalendar(db: Db, auth: Auth, id: number, now: number): Promise<{ message: string }> {
  assertCan(auth, MODULE, "delete");
  const cal = await findCalendar(db, auth, id);
  const k = schema.ekeyAssignments;
  const cs = schema.companySettings;
  await db.batch([
    db
      .update(k)
      .set({ holidayCalendarId: null, onHolidays: "ignore", updatedAt: now })
      .where(inCompany(k, auth, eq(k.holidayCalendarId, cal.id))),
    db
      .update(cs)
      .set({ holidayCalendarId: null, onHolidays: "ignore", updatedAt: now })
      .where(and(eq(cs.companyId, auth.company.id), eq(cs.holidayCalendarId, cal.id))),
    db
      .update(schema.alerts)
      .set({ holidayCalendarId: null, onHolidays: "ignore", updatedAt: now })
      .where(inCompany(schema.alerts, auth, eq(schema.alerts.holidayCalendarId, cal.id))),
    db
      .update(schema.deviceGroups)
      .set({ holidayCalendarId: null, onHolidays: "ignore", updatedAt: now })
      .where(inCompany(schema.deviceGroups, auth, eq(schema.deviceGroups.holidayCalendarId, cal.id))),
    db.delete(h).where(inCompany(h, auth, eq(h.calendarId, cal.id))),
    db.delete(c).where(inCompany(c, auth, eq(c.id, cal.id))),
    activityInsert(db, audit(auth, "Holiday Calendar Deleted", cal.name, now)),
  ]);
  return { message: HOLIDAY_MSG.removed };
}

async function assertRoom(db: Db, auth: Auth, calendarId: number, adding: number) {
  const [{ n }] = await db
    .select({ n: count() })
    .from(h)
    .where(inCompany(h, auth, eq(h.calendarId, calendarId)));
  if (n + adding > MAX_CALENDAR_DATES) throw new ServiceError(422, HOLIDAY_MSG.tooManyDates);
}

const touch = (db: Db, auth: Auth, calendarId: number, now: number) =>
  db
    .update(c)
    .set({ updatedAt: now })
    .where(inCompany(c, auth, eq(c.id, calendarId)));

/** Adds a date, or changes the one already on that date (its name and hours). */
export async function saveDate(db: Db, auth: Auth, calendarId: number, input: HolidayDateInput, now: number): Promise<{ message: string }> {
  assertCan(auth, MODULE, "modify");
  const cal = await findCalendar(db, auth, calendarId);
  const existing = await db.query.holidayDates.findFirst({ where: inCompany(h, auth, eq(h.calendarId, cal.id), eq(h.date, input.date)) });
  if (!existing) await assertRoom(db, auth, cal.id, 1);
  const values = { name: input.name, openTime: input.openTime ?? null, closeTime: input.closeTime ?? null };
  await db.batch([
    existing
      ? db
          .update(h)
          .set(values)
          .where(inCompany(h, auth, eq(h.id, existing.id)))
      : db.insert(h).values({ companyId: auth.company.id, calendarId: cal.id, date: input.date, ...values }),
    touch(db, auth, cal.id, now),
    activityInsert(db, audit(auth, "Holiday Calendar Modified", `${cal.name}: ${input.date}`, now)),
  ]);
  return { message: HOLIDAY_MSG.dateSaved };
}

export async function removeDate(db: Db, auth: Auth, calendarId: number, dateId: number, now: number): Promise<{ message: string }> {
  assertCan(auth, MODULE, "modify");
  const cal = await findCalendar(db, auth, calendarId);
  const row =
    (Number.isSafeInteger(dateId) ? await db.query.holidayDates.findFirst({ where: inCompany(h, auth, eq(h.calendarId, cal.id), eq(h.id, dateId)) }) : undefined) ??
    notFound(HOLIDAY_MSG.dateNotFound);
  await db.batch([
    db.delete(h).where(inCompany(h, auth, eq(h.id, row.id))),
    touch(db, auth, cal.id, now),
    activityInsert(db, audit(auth, "Holiday Calendar Modified", `${cal.name}: -${row.date}`, now)),
  ]);
  return { message: HOLIDAY_MSG.dateRemoved };
}

/** Adds a public-holiday set's dates for a year; dates already in the calendar keep their edits. */
export async function importHolidays(db: Db, auth: Auth, calendarId: number, input: ImportInput, now: number): Promise<{ message: string; added: number }> {
  assertCan(auth, MODULE, "modify");
  const cal = await findCalendar(db, auth, calendarId);
  const dates = importedDates(input);
  const have = new Set(
    (
      await db
        .select({ date: h.date })
        .from(h)
        .where(inCompany(h, auth, eq(h.calendarId, cal.id)))
    ).map((r) => r.date),
  );
  const fresh = dates.filter((d) => !have.has(d.date));
  if (have.size + fresh.length > MAX_CALENDAR_DATES) throw new ServiceError(422, HOLIDAY_MSG.tooManyDates);
  await db.batch([
    touch(db, auth, cal.id, now),
    ...fresh.map((d) => db.insert(h).values({ companyId: auth.company.id, calendarId: cal.id, date: d.date, name: d.name }).onConflictDoNothing()),
    activityInsert(db, audit(auth, "Holiday Calendar Modified", `${cal.name}: ${input.source} ${input.year}`, now)),
  ]);
  return { message: HOLIDAY_MSG.imported, added: fresh.length };
}
