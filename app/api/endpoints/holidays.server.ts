import { z } from "zod";
import { addCalendarSchema, calendarFormSchema, holidayDateSchemaWith, importSchema } from "~/schemas/holidays";
import * as holidays from "~/services/holidays.server";
import { publicHolidaySets } from "~/services/public-holidays/index.server";
import { endpoint } from "../define.server";

const tag = "Holiday calendars";
const message = z.object({ message: z.string() });
const id = z.coerce.number({ invalid_type_error: "id must be a number" }).int().positive("id is required");
const idQuery = z.object({ id });
const calendarId = z.object({ calendarId: id });
const dateShape = z.object({ id: z.number(), date: z.string(), name: z.string(), openTime: z.string().nullable(), closeTime: z.string().nullable() });
const modules = "company_settings" as const;

/** Issue 31, decision 0077: a company's holiday calendars, which keys and the scheduled-open hours follow. */
export const holidayEndpoints = [
  endpoint({
    method: "GET",
    path: "/holidays/getCalendars",
    tag,
    summary: "The caller's company's holiday calendars: id, name, source (the public-holiday set it was imported from), dates (how many), updatedAt.",
    auth: "token",
    permission: { modules },
    response: z.object({ payload: z.array(z.object({ id: z.number(), name: z.string(), source: z.string().nullable(), dates: z.number(), updatedAt: z.number() })) }),
    async handler({ db, auth }) {
      return { payload: (await holidays.listCalendars(db, auth)).rows };
    },
  }),
  endpoint({
    method: "GET",
    path: "/holidays/getCalendar",
    tag,
    summary:
      "One calendar with its dates, by date: a date without times is a whole-day holiday; with times the doors and keys that follow it work only [openTime, closeTime). 404 outside the caller's company.",
    auth: "token",
    permission: { modules },
    query: idQuery,
    response: z.object({ payload: z.object({ id: z.number(), name: z.string(), source: z.string().nullable(), dates: z.array(dateShape) }) }),
    async handler({ db, auth, query }) {
      return { payload: await holidays.getCalendar(db, auth, query.id) };
    },
  }),
  endpoint({
    method: "POST",
    path: "/holidays/addCalendar",
    tag,
    summary:
      "Creates a calendar ('Holiday Calendar Created'); with `source` (a code of /holidays/getPublicHolidaySets, e.g. ES or ES-MD) and `year` it starts with that set's public holidays. 400 bad name, set or year; 422 a name the company already uses.",
    auth: "token",
    permission: { modules, action: "add" },
    body: addCalendarSchema,
    response: z.object({ message: z.string(), payload: z.object({ id: z.number() }) }),
    async handler({ db, auth, body, now }) {
      const r = await holidays.addCalendar(db, auth, body, now);
      return { message: r.message, payload: { id: r.id } };
    },
  }),
  endpoint({
    method: "PUT",
    path: "/holidays/modifyCalendar",
    tag,
    summary: "Renames a calendar ('Holiday Calendar Modified'). 404 outside the caller's company; 422 a name in use.",
    auth: "token",
    permission: { modules, action: "modify" },
    body: calendarFormSchema.extend({ id }),
    response: message,
    async handler({ db, auth, body, now }) {
      return await holidays.renameCalendar(db, auth, body.id, body, now);
    },
  }),
  endpoint({
    method: "DELETE",
    path: "/holidays/deleteCalendar",
    tag,
    summary:
      "Deletes a calendar and its dates ('Holiday Calendar Deleted'); the keys, device groups, scheduled-open hours and alert schedules that followed it ignore holidays from then on.",
    auth: "token",
    permission: { modules, action: "delete" },
    query: idQuery,
    response: message,
    async handler({ db, auth, query, now }) {
      return await holidays.deleteCalendar(db, auth, query.id, now);
    },
  }),
  endpoint({
    method: "POST",
    path: "/holidays/saveDate",
    tag,
    summary:
      "Adds a date to a calendar, or changes the one on that date: `date` YYYY-MM-DD, `name`, and optional `openTime`/`closeTime` HH:MM (closing at 14:00 is closeTime 14:00 alone). At most 400 dates a calendar (422). The gateways and the next signed credentials get the change.",
    auth: "token",
    permission: { modules, action: "modify" },
    body: holidayDateSchemaWith(calendarId.shape),
    response: message,
    async handler({ db, auth, body, now }) {
      return await holidays.saveDate(db, auth, body.calendarId, body, now);
    },
  }),
  endpoint({
    method: "DELETE",
    path: "/holidays/deleteDate",
    tag,
    summary: "Removes a date (by its id) from a calendar.",
    auth: "token",
    permission: { modules, action: "modify" },
    query: calendarId.extend({ id }),
    response: message,
    async handler({ db, auth, query, now }) {
      return await holidays.removeDate(db, auth, query.calendarId, query.id, now);
    },
  }),
  endpoint({
    method: "POST",
    path: "/holidays/importPublicHolidays",
    tag,
    summary:
      "Adds a country's or region's public holidays for a year (2025 to 2035) to a calendar; dates already in it keep their name and hours. payload.added: how many dates were new. 400 unknown set or year out of range.",
    auth: "token",
    permission: { modules, action: "modify" },
    body: importSchema.extend({ calendarId: id }),
    response: z.object({ message: z.string(), payload: z.object({ added: z.number() }) }),
    async handler({ db, auth, body, now }) {
      const r = await holidays.importHolidays(db, auth, body.calendarId, body, now);
      return { message: r.message, payload: { added: r.added } };
    },
  }),
  endpoint({
    method: "GET",
    path: "/holidays/getPublicHolidaySets",
    tag,
    summary: "The countries and regions whose public holidays can be imported: code (ES, ES-MD) and English label.",
    auth: "token",
    permission: { modules },
    response: z.object({ payload: z.array(z.object({ code: z.string(), label: z.string() })) }),
    async handler() {
      return { payload: publicHolidaySets() };
    },
  }),
];
