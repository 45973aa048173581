import { z } from "zod";
import { alertFields, alertId, alertTestFields, ALERT_MSG, CHANNELS, checkAlert, normaliseAlert, type AlertKey } from "~/schemas/alerts";
import { ON_HOLIDAYS } from "~/schemas/holidays";
import { nestDays, weekFlags, WEEKDAYS, type Weekday } from "~/schemas/week";
import * as alerts from "~/services/alerts.server";
import type { AlertDetails, AlertListRow } from "~/services/alerts.server";
import { companyLogDb } from "~/utils/company-log.server";
import { bit, bitShape } from "../flags.server";
import { endpoint } from "../define.server";
import { deliveringMessages } from "../message-delivery.server";
import { wireObject, withWireFields } from "../wire-fields.server";

const tag = "Alerts";
const idQuery = z.object({ id: z.coerce.number({ invalid_type_error: "id must be a number" }).int().positive(), uid: z.string().max(100).optional() });
/** Times travel as HH:mm:00 (spec part 1 §5). */
const wireTime = (v: string | null) => (v ? `${v}:00` : null);

const DAY_WIRE = { monday: "mon", tuesday: "tue", wednesday: "wed", thursday: "thu", friday: "fri", saturday: "sat", sunday: "sun" } as const satisfies Record<Weekday, string>;

/** The alert's domain fields in the spec's names (spec part 1 §5, Add alert); field errors go back under these. */
const ALERT_WIRE = {
  name: "displayName",
  activities: "activities",
  createdBy: "created_by_users",
  targetUsers: "target_users",
  devices: "devices",
  schedule: "schedule",
  startDate: "startDate",
  endDate: "endDate",
  neverEnds: "isNeverEnd",
  days: "days",
  allDay: "isAllDay",
  startTime: "startTime",
  endTime: "endTime",
  timeZoneId: "zone",
  onHolidays: "on_holidays",
  holidayCalendarId: "holiday_calendar_id",
  recipients: "emails",
  language: "language",
  id: "id",
  ...DAY_WIRE,
} as const satisfies Record<AlertKey | Weekday | "id", string>;

/**
 * The spec's other spellings of the same fields: `name`, `time_zone`, the stored names, `days` as seven 0/1
 * characters. The spec's single `activity` joins the list `activities` (decision 0059).
 */
function spellings(v: unknown) {
  if (!v || typeof v !== "object") return v;
  const o = { ...(v as Record<string, unknown>) };
  o.displayName ??= o.name;
  o.zone ??= o.time_zone ?? o.time_zone_id;
  o.startDate ??= o.start_date;
  o.endDate ??= o.end_date;
  o.isNeverEnd ??= o.is_never_end;
  o.isAllDay ??= o.is_all_day;
  o.startTime ??= o.start_time;
  o.endTime ??= o.end_time;
  o.emails ??= o.recipients;
  o.on_holidays ??= o.onHolidays;
  o.holiday_calendar_id ??= o.holidayCalendarId;
  o.activity ??= o.activityId ?? o.activity_id;
  if (o.activity != null && o.activity !== "") o.activities = [o.activity, ...(Array.isArray(o.activities) ? o.activities : o.activities == null ? [] : [o.activities])];
  delete o.activity;
  if (typeof o.days === "string" && /^[01]{7}$/.test(o.days)) WEEKDAYS.forEach((d, i) => (o[DAY_WIRE[d]] ??= (o.days as string)[i]));
  return o;
}

/** The spec's body is flat, a flag per day (`mon` ... `sun`); the alert nests them under `days`. */
const flatAlert = alertFields.omit({ days: true }).merge(weekFlags);
/** Add and modify bodies in the spec's names, checked as the page's form is, as the alert the service takes. */
const addBody = z.preprocess(
  spellings,
  wireObject(flatAlert, ALERT_WIRE)
    .transform(nestDays)
    .superRefine((v, ctx) => checkAlert(v, ctx, (k) => ALERT_WIRE[k]))
    .transform(normaliseAlert),
);
const modifyBody = z.preprocess(
  spellings,
  wireObject(flatAlert.extend({ id: alertId }), ALERT_WIRE)
    .transform(nestDays)
    .superRefine((v, ctx) => checkAlert(v, ctx, (k) => ALERT_WIRE[k]))
    .transform(normaliseAlert),
);
const testBody = z.preprocess(spellings, wireObject(alertTestFields, { name: "displayName", recipients: "emails" }));

const listRow = (x: AlertListRow) => ({
  id: x.id,
  name: x.name,
  activity: { name: x.activityName },
  activities: x.activityNames.map((name) => ({ name })),
  lastActivity: x.lastRunAt,
  lastActivityID: x.lastActivityId,
});

const ANY = { created_by: "Any User", target_user: "Any User", device: "Any Device" } as const;
const pickerOf = (kind: keyof typeof ANY) => (x: AlertDetails["targets"][number]) =>
  x.refId === null
    ? { id: null, name: ANY[kind], type: ANY[kind] }
    : kind === "device"
      ? { id: x.refId, name: x.deviceName ?? "", type: "Device" }
      : { id: x.refId, name: x.userName ?? "", type: "User", e_mail: x.userEmail ?? "" };

/** The stored alert in the form's names and in the stored names (spec part 1 §3, Alert). */
function detailsPayload(x: AlertDetails) {
  const al = x.alert;
  const targets = (kind: keyof typeof ANY) => x.targets.filter((t) => t.kind === kind).map(pickerOf(kind));
  const days = Object.fromEntries(WEEKDAYS.map((d, i) => [DAY_WIRE[d], bit(al.days[i] === "1")]));
  return {
    id: al.id,
    name: al.name,
    displayName: al.name,
    activity: { id: x.activity.id, name: x.activity.name, type: x.activity.type, alert_conditions: x.activity.alertConditions },
    activities: x.activities.map((y) => ({ id: y.id, name: y.name, type: y.type, alert_conditions: y.alertConditions })),
    created_by_users: targets("created_by"),
    target_users: targets("target_user"),
    devices: targets("device"),
    schedule: al.schedule,
    startDate: al.startDate,
    endDate: al.endDate,
    isNeverEnd: bit(al.isNeverEnd),
    ...days,
    isAllDay: bit(al.isAllDay),
    startTime: wireTime(al.startTime),
    endTime: wireTime(al.endTime),
    zone: al.timeZoneId,
    start_date: al.startDate,
    end_date: al.endDate,
    is_never_end: bit(al.isNeverEnd),
    days: al.days,
    is_all_day: bit(al.isAllDay),
    start_time: wireTime(al.startTime),
    end_time: wireTime(al.endTime),
    time_zone: x.zone?.id ? { id: x.zone.id, name: x.zone.name, full_time_zone: x.zone.label } : null,
    on_holidays: al.onHolidays,
    holiday_calendar_id: al.holidayCalendarId,
    emails: x.recipients.map((r) =>
      r.userId
        ? { id: r.userId, name: r.name ?? r.email, type: "User", e_mail: r.email, channel: r.channel }
        : { id: null, name: r.email, type: "Email", e_mail: r.email, channel: r.channel },
    ),
    language: al.language,
    lastActivity: al.lastRunAt,
    lastActivityID: al.lastActivityId,
  };
}

const ON_HOLIDAYS_DOC =
  "what a custom schedule does on a date of holiday_calendar_id (decision 0077): ignore (fires as on any day; the default), closed (not on holidays: fires only within a holiday's own open hours, if it has any) or holidayHours (fires within the holiday's open hours instead of its own, on its own dates and weekdays); an 'any' schedule always ignores holidays";
const HOLIDAY_CALENDAR_DOC = "the caller's company's holiday calendar the custom schedule follows; required unless on_holidays is ignore, null then";
const picker = z.object({ id: z.number().nullable(), name: z.string(), type: z.string(), e_mail: z.string().optional() });
const CHANNEL_DOC =
  "how the recipient hears of a firing: email (the default), text (the mail's subject line by text message to the user's own phone) or both; text and both only for type User, only when the company's alert_texts setting is on, and only for a user with a mobile phone number";
const recipientShape = picker.extend({ channel: z.enum(CHANNELS).describe(CHANNEL_DOC) });
const activityShape = z.object({ id: z.number(), name: z.string(), type: z.string(), alert_conditions: z.string() });
const detailsShape = z.object({
  id: z.number(),
  name: z.string(),
  displayName: z.string(),
  activity: activityShape.describe("the first of `activities` (the spec's single activity)"),
  activities: z.array(activityShape).describe("every activity the alert fires for"),
  created_by_users: z.array(picker),
  target_users: z.array(picker),
  devices: z.array(picker),
  schedule: z.enum(["any", "custom"]),
  startDate: z.string().nullable().describe("YYYY-MM-DD"),
  endDate: z.string().nullable().describe("YYYY-MM-DD; null when it never ends"),
  isNeverEnd: bitShape,
  ...Object.fromEntries(WEEKDAYS.map((d) => [DAY_WIRE[d], bitShape])),
  isAllDay: bitShape,
  startTime: z.string().nullable().describe("HH:mm:00"),
  endTime: z.string().nullable().describe("HH:mm:00"),
  zone: z.number().nullable(),
  days: z.string().describe("seven 0/1 characters, Monday first"),
  time_zone: z.object({ id: z.number(), name: z.string(), full_time_zone: z.string() }).nullable(),
  on_holidays: z.enum(ON_HOLIDAYS).describe(ON_HOLIDAYS_DOC),
  holiday_calendar_id: z.number().nullable().describe(HOLIDAY_CALENDAR_DOC),
  emails: z.array(recipientShape),
  language: z.enum(["en", "es"]).describe("the language of the alert's mail"),
  lastActivity: z.number().nullable(),
  lastActivityID: z.number().nullable(),
});

const sentinelAlert = z.object({
  id: z.number().describe("the firing (one alert matching one activity)"),
  alert_id: z.number(),
  alert_name: z.string(),
  activity_id: z.number(),
  activity_name: z.string(),
  activity_timestamp: z.number().describe("epoch milliseconds"),
  summary: z.string(),
  target_device_id: z.number().nullable(),
  target_user_id: z.number().nullable(),
  state: z.enum(["sent", "held", "digested"]).describe("sent: mailed on its own or opened a digest; held: waiting for the digest; digested: listed in a digest"),
  matched_at: z.number().describe("epoch milliseconds"),
});

export const alertEndpoints = [
  endpoint({
    method: "GET",
    path: "/user/getAlerts",
    tag,
    summary:
      "Every live alert of the caller's company: id, name, activity.name (the first), activities (every one it fires for), lastActivity (last run, epoch ms) and lastActivityID.",
    auth: "token",
    permission: { modules: "activity" },
    response: z.object({
      message: z.string(),
      payload: z.array(
        z.object({
          id: z.number(),
          name: z.string(),
          activity: z.object({ name: z.string() }).describe("the first of `activities`"),
          activities: z.array(z.object({ name: z.string() })),
          lastActivity: z.number().nullable(),
          lastActivityID: z.number().nullable(),
        }),
      ),
    }),
    async handler({ db, auth }) {
      return { payload: (await alerts.allAlerts(db, auth)).map(listRow) };
    },
  }),
  endpoint({
    method: "GET",
    path: "/user/getAlertDetails",
    tag,
    summary: "One alert (uid is accepted and ignored). 404 outside the caller's company.",
    auth: "token",
    permission: { modules: "activity" },
    query: idQuery,
    response: z.object({ message: z.string(), payload: detailsShape }),
    async handler({ db, auth, query }) {
      return { payload: detailsPayload(await alerts.getAlertDetails(db, auth, query.id)) };
    },
  }),
  endpoint({
    method: "POST",
    path: "/user/addAlert",
    tag,
    summary:
      "Creates an alert. It fires for any of `activities` (a list of {id} or {name}, or names or ids; at most 20); the spec's single `activity` is still read and joins the list. An activity the company cannot have (a platform event) is refused with 400. `language` (en or es, default en) is the mail's. Dates YYYY-MM-DD, times HH:mm:00; pickers are lists of {id, name, type} (type 'Any User'/'Any Device' or id null: any). `emails` lists picked users {id, type 'User', channel} and addresses; a user's channel is email (the default), text or both: text and both need the company's alert_texts setting and the user's mobile phone number (400 otherwise), and only the company's users can be texted (a typed address cannot; a user of another company is a 404). A custom schedule may follow one of the company's holiday calendars: `on_holidays` (ignore, closed: not on holidays, or holidayHours) and `holiday_calendar_id`, required unless ignore; another company's calendar or an unknown one is refused with 400 on holiday_calendar_id. Needs the add right.",
    auth: "token",
    permission: { modules: "activity", action: "add" },
    body: addBody,
    response: z.object({ message: z.string(), payload: z.object({ id: z.number() }) }),
    async handler({ db, auth, body, now, core }) {
      return { message: ALERT_MSG.created, payload: { id: await withWireFields(ALERT_WIRE, () => alerts.addAlert(db, auth, body, now, core)) } };
    },
  }),
  endpoint({
    method: "POST",
    path: "/user/modifyAlert",
    tag,
    summary:
      "Saves an alert (the add body plus id). A body without on_holidays keeps the alert's holiday choice; an 'any' schedule ignores holidays. Needs the modify right; 404 outside the caller's company.",
    auth: "token",
    permission: { modules: "activity", action: "modify" },
    body: modifyBody,
    response: z.object({ message: z.string(), payload: z.object({ id: z.number() }) }),
    async handler({ db, auth, body, now, core }) {
      await withWireFields(ALERT_WIRE, () => alerts.modifyAlert(db, auth, body, now, core));
      return { message: ALERT_MSG.modified, payload: { id: body.id } };
    },
  }),
  endpoint({
    method: "DELETE",
    path: "/user/deleteAlert",
    tag,
    summary: "Deletes an alert. Needs the delete right; 404 outside the caller's company.",
    auth: "token",
    permission: { modules: "activity", action: "delete" },
    query: idQuery,
    response: z.object({ message: z.string() }),
    async handler({ db, auth, query, now }) {
      await alerts.deleteAlert(db, auth, query.id, now);
      return { message: ALERT_MSG.deleted };
    },
  }),
  endpoint({
    method: "POST",
    path: "/user/alertTestEmail",
    tag,
    summary: "Sends a test mail to the form's recipients (emails: picked users {id, type 'User'} or addresses; at most 50). Needs the add or modify right.",
    auth: "token",
    permission: { modules: "activity", action: ["add", "modify"] },
    body: testBody,
    response: z.object({ message: z.string(), payload: z.object({ recipients: z.number() }) }),
    async handler({ db, auth, body, now, env, waitUntil }) {
      const recipients = await deliveringMessages(
        { env, waitUntil },
        withWireFields(ALERT_WIRE, () => alerts.sendAlertTestEmail(db, auth, body, now)),
      );
      return { message: ALERT_MSG.emailSent, payload: { recipients } };
    },
  }),
  endpoint({
    method: "GET",
    path: "/user/getSentinelAlerts",
    tag,
    summary: "The company's latest alert firings, newest first (at most 100): which alert matched which activity and what became of its mail.",
    auth: "token",
    permission: { modules: "activity" },
    response: z.object({ message: z.string(), payload: z.array(sentinelAlert) }),
    async handler({ env, db, auth }) {
      const rows = await alerts.sentinelAlerts(db, companyLogDb(env, auth.company.id), auth);
      return {
        payload: rows.map((x) => ({
          id: x.id,
          alert_id: x.alertId,
          alert_name: x.alertName,
          activity_id: x.activityId,
          activity_name: x.activityName,
          activity_timestamp: x.activityTimestamp,
          summary: x.summary,
          target_device_id: x.targetDeviceId,
          target_user_id: x.targetUserId,
          state: x.state,
          matched_at: x.matchedAt,
        })),
      };
    },
  }),
];
