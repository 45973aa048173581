/**
 * An alert (add and modify, four steps) and its test mail in domain names: the page's form posts
 * them and the service takes them. The admin API's endpoint file reads the spec's names
 * (`created_by_users`, `mon`, `zone`, `emails`, ...) into the same fields. Lenient on shapes (picker
 * objects, ids, JSON text, '1'/'0' flags); strict on what is stored. An alert fires for one or more
 * activities (decision 0059). Which pickers they need, and whether the company can have them at all, is
 * checked by the service against the activity catalogue; the schedule by the access-window core. A custom
 * schedule may follow one of the company's holiday calendars (decision 0077), as a key does.
 */
import { z } from "zod";
import { checkbox } from "./flag";
import { HOLIDAY_MSG, ON_HOLIDAYS } from "./holidays";
import { nameText, NAME_MAX } from "./text";
import { WEEKDAYS, weekFlags } from "./week";

export const ALERT_MSG = {
  name: "Display name is required",
  activity: "Activity is required",
  activityNotForCompany: "This activity cannot happen in your company",
  createdBy: "Created by users are required",
  targetUsers: "Target users are required",
  devices: "Devices are required",
  schedule: "Schedule is required",
  startDate: "Start date is required or invalid",
  endDate: "End date is required or invalid",
  days: "Please select at least one day",
  times: "Start and End time are required",
  sameTimes: "End time must differ from start time",
  zone: "Time zone is required",
  recipients: "At least one email or recipient is required",
  email: "Email is invalid",
  tooMany: "Too many entries",
  channel: "Channel must be email, text or both",
  textsOff: "Your company does not allow alerts by text message",
  textNeedsUser: "Only your company's users can receive texts",
  noPhone: "A recipient chosen for texts has no mobile phone number",
  language: "Language must be en or es",
  onHolidays: "On holidays must be ignore, closed or holidayHours",
  created: "Alert Created",
  modified: "Alert Modified",
  deleted: "Alert deleted",
  emailSent: "Email Sent",
  notFound: "Alert not found",
} as const;

/** Which companies can have an activity (the catalogue's `audience`, migration 0031). */
export type ActivityAudience = "company" | "reseller" | "platform";

/** The three pickers, in the order of an activity's `alert_conditions` positions. */
export const CONDITION_FIELDS = ["createdBy", "targetUsers", "devices"] as const;
export type ConditionField = (typeof CONDITION_FIELDS)[number];
export const CONDITION_MSG: Record<ConditionField, string> = {
  createdBy: ALERT_MSG.createdBy,
  targetUsers: ALERT_MSG.targetUsers,
  devices: ALERT_MSG.devices,
};

export const MAX_TARGETS = 200;
/** Activities one alert may watch (the catalogue has about 90). */
export const MAX_ACTIVITIES = 20;
export const MAX_RECIPIENTS = 50;

/** Form fields carry lists and objects as JSON text; the API sends them as JSON. */
const json = (v: unknown) => {
  if (typeof v !== "string") return v;
  const s = v.trim();
  if (!s.startsWith("[") && !s.startsWith("{")) return v;
  try {
    return JSON.parse(s);
  } catch {
    return v;
  }
};

const flag = checkbox();

const dateText = z.preprocess(
  (v) => (typeof v === "string" ? v.trim().slice(0, 10) : v == null ? "" : v),
  z.union([z.literal(""), z.string().regex(/^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/, "Date must be YYYY-MM-DD")]),
);
/** HH:mm; the spec sends HH:mm:00 and the seconds are dropped. */
const timeText = z.preprocess(
  (v) => (typeof v === "string" ? v.trim().replace(/^(\d{2}:\d{2}):\d{2}$/, "$1") : v == null ? "" : v),
  z.union([z.literal(""), z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, "Time must be HH:mm")]),
);

const idOf = (v: unknown): unknown => (v && typeof v === "object" && "id" in v ? (v as { id: unknown }).id : v);

/** A time-zone id: a number, a numeric string or an object with an id. */
const zoneId = z.preprocess((v) => {
  const x = idOf(json(v));
  return x === "" || x == null || x === 0 || x === "0" ? undefined : x;
}, z.coerce.number().int().positive().optional());

/**
 * What a custom schedule does on a holiday of its calendar; absent (a client that does not know the field)
 * keeps what a saved alert has, and a new one ignores holidays.
 */
const onHolidays = z
  .preprocess((v) => (v === "" || v == null ? undefined : v), z.enum(ON_HOLIDAYS, { errorMap: () => ({ message: ALERT_MSG.onHolidays }) }).optional())
  .describe("custom schedule on a holiday of its calendar: ignore, closed (not on holidays) or holidayHours; left out, a saved alert keeps its choice");
/** The holiday calendar: an id, a numeric string or an object with an id; empty is none. */
const calendarId = z
  .preprocess(
    (v) => {
      const x = idOf(json(v));
      return x === "" || x == null || x === 0 || x === "0" ? null : x;
    },
    z.coerce.number({ invalid_type_error: HOLIDAY_MSG.notFound }).int(HOLIDAY_MSG.notFound).positive(HOLIDAY_MSG.notFound).nullable(),
  )
  .describe("the company's holiday calendar the custom schedule follows; required unless the holiday choice is ignore");

/**
 * Picker entries: ids, `{id, name, type}` objects, or "any" (an entry of type "Any User"/"Any
 * Device", id null or 0). Normalised to `null` (any) or the id; duplicates dropped.
 */
const targetList = z.preprocess(
  (v) => {
    const x = json(v);
    const list = Array.isArray(x) ? x : typeof x === "string" ? x.split(",").filter((s) => s.trim() !== "") : x == null ? [] : [x];
    const ids = list.map((e) => {
      if (e && typeof e === "object" && typeof (e as { type?: unknown }).type === "string" && /^any/i.test((e as { type: string }).type)) return null;
      const id = idOf(e);
      return id == null || id === 0 || id === "0" || (typeof id === "string" && /^any$/i.test(id.trim())) ? null : typeof id === "string" ? Number(id.trim()) : id;
    });
    return [...new Set(ids)];
  },
  z.array(z.number({ invalid_type_error: "Invalid selection" }).int().positive().nullable()).max(MAX_TARGETS, ALERT_MSG.tooMany),
);

const email = z.string().trim().toLowerCase().max(254, ALERT_MSG.email).email(ALERT_MSG.email);

/** How a recipient hears of a firing (decision 0073); only the company's users can be texted. */
export const CHANNELS = ["email", "text", "both"] as const;
export type Channel = (typeof CHANNELS)[number];
/** Lenient spellings ("sms", "e-mail", any case); absent is e-mail. */
const channel = z.preprocess(
  (v) => {
    if (v == null || v === "") return "email";
    const s = String(v).trim().toLowerCase();
    return s === "sms" ? "text" : s === "e-mail" || s === "mail" ? "email" : s;
  },
  z.enum(CHANNELS, { errorMap: () => ({ message: ALERT_MSG.channel }) }),
);

/** Recipients: picked users (`{id, e_mail, channel}`, type User) or typed addresses (a string, or type Email); duplicates by id or address dropped. */
export const recipientList = z.preprocess(
  (v) => {
    const x = json(v);
    const list = Array.isArray(x) ? x : typeof x === "string" ? x.split(/[,;\s]+/).filter(Boolean) : x == null ? [] : [x];
    return list.map((e) => {
      if (typeof e === "string") return { userId: null, email: e };
      const o = (e ?? {}) as { id?: unknown; userId?: unknown; e_mail?: unknown; email?: unknown; type?: unknown; channel?: unknown };
      const isUser = o.type !== "Email" && (o.userId ?? o.id) != null && (o.userId ?? o.id) !== "";
      return { userId: isUser ? Number(o.userId ?? o.id) : null, email: String(o.e_mail ?? o.email ?? ""), channel: o.channel };
    });
  },
  z
    .array(
      // A picked user's address is looked up by the server; a typed one must be an address.
      z
        .object({ userId: z.number().int().positive().nullable(), email: z.union([z.literal(""), email]), channel })
        .refine((r) => r.userId !== null || r.email !== "", { message: ALERT_MSG.email, path: ["email"] }),
    )
    .max(MAX_RECIPIENTS, ALERT_MSG.tooMany)
    .transform((list) => {
      const seen = new Set<string>();
      return list.filter((r) => {
        const keys = [...(r.email ? [`e:${r.email}`] : []), ...(r.userId ? [`u:${r.userId}`] : [])];
        if (keys.some((k) => seen.has(k))) return false;
        keys.forEach((k) => seen.add(k));
        return true;
      });
    }),
);
export type Recipient = { userId: number | null; email: string; channel: Channel };

/** An activity: a picker object `{id?, name, ...}`, a name, or an id. */
const activityRef = z.preprocess(
  (x) => {
    if (typeof x === "number" || (typeof x === "string" && /^\d+$/.test(x.trim()))) return { id: Number(x) };
    if (typeof x === "string") return { name: x.trim() };
    return x;
  },
  z.object(
    {
      id: z.coerce.number().int().positive().optional(),
      name: z.string().trim().max(NAME_MAX).optional(),
    },
    { invalid_type_error: ALERT_MSG.activity },
  ),
);
export type ActivityRef = z.output<typeof activityRef>;

/** The activities an alert fires for: a list of references, or one (the spec's single `activity`); empty entries dropped. */
const activityList = z.preprocess(
  (v) => {
    const x = json(v);
    const list = Array.isArray(x) ? x : x == null ? [] : [x];
    return list.map(json).filter((e) => e != null && e !== "");
  },
  z.array(activityRef).max(MAX_ACTIVITIES, ALERT_MSG.tooMany),
);

/** The alert's fields one by one; the admin API reads the same fields in the spec's names. */
export const alertFields = z.object({
  name: nameText("Display name", NAME_MAX, ALERT_MSG.name),
  activities: activityList,
  createdBy: targetList,
  targetUsers: targetList,
  devices: targetList,
  schedule: z.enum(["any", "custom"], { errorMap: () => ({ message: ALERT_MSG.schedule }) }),
  startDate: dateText,
  endDate: dateText,
  neverEnds: flag,
  // Nothing ticked posts no `days.*` field at all.
  days: weekFlags.default({}),
  allDay: flag,
  startTime: timeText,
  endTime: timeText,
  timeZoneId: zoneId,
  /** The holiday calendar a custom schedule follows and how (decision 0077); "ignore" needs none. */
  onHolidays,
  holidayCalendarId: calendarId,
  recipients: recipientList,
  /** The language of the alert's mail; the pages send their own. */
  language: z.enum(["en", "es"], { errorMap: () => ({ message: ALERT_MSG.language }) }).default("en"),
});
export const alertId = z.coerce.number().int().positive();
type Alert = z.output<typeof alertFields>;
export type AlertKey = keyof Alert;

/** The whole-alert rules; `name` gives a field's name in the checked body. */
export function checkAlert(v: Alert, ctx: z.RefinementCtx, name: (key: AlertKey) => string = (k) => k) {
  const issue = (key: AlertKey, message: string) => ctx.addIssue({ code: "custom", path: [name(key)], message });
  if (v.activities.length === 0 || v.activities.some((x) => !x.id && !x.name)) issue("activities", ALERT_MSG.activity);
  if (v.schedule === "custom") {
    if (!v.startDate) issue("startDate", ALERT_MSG.startDate);
    if (!v.neverEnds && (!v.endDate || (v.startDate && v.endDate < v.startDate))) issue("endDate", ALERT_MSG.endDate);
    if (!WEEKDAYS.some((d) => v.days[d])) issue("days", ALERT_MSG.days);
    if (!v.allDay && (!v.startTime || !v.endTime)) issue(v.startTime ? "endTime" : "startTime", ALERT_MSG.times);
    if (v.timeZoneId == null) issue("timeZoneId", ALERT_MSG.zone);
    if (v.onHolidays && v.onHolidays !== "ignore" && v.holidayCalendarId == null) issue("holidayCalendarId", HOLIDAY_MSG.calendarRequired);
  }
  if (v.recipients.length === 0) issue("recipients", ALERT_MSG.recipients);
}

/** Never-ends clears the end date, all-day the times, ignoring holidays the calendar; an "any" schedule keeps no custom fields. */
export function normaliseAlert<T extends Alert>(v: T): T {
  if (v.schedule === "any")
    return {
      ...v,
      startDate: "",
      endDate: "",
      neverEnds: true,
      allDay: true,
      startTime: "",
      endTime: "",
      days: Object.fromEntries(WEEKDAYS.map((d) => [d, true])) as Alert["days"],
      onHolidays: "ignore",
      holidayCalendarId: null,
    };
  return {
    ...v,
    endDate: v.neverEnds ? "" : v.endDate,
    startTime: v.allDay ? "" : v.startTime,
    endTime: v.allDay ? "" : v.endTime,
    holidayCalendarId: v.onHolidays === "ignore" ? null : v.holidayCalendarId,
  };
}

export const addAlertSchema = alertFields.superRefine((v, ctx) => checkAlert(v, ctx)).transform(normaliseAlert);
export const modifyAlertSchema = alertFields
  .extend({ id: alertId })
  .superRefine((v, ctx) => checkAlert(v, ctx))
  .transform(normaliseAlert);
export type AddAlertInput = z.output<typeof addAlertSchema>;
export type ModifyAlertInput = z.output<typeof modifyAlertSchema>;

/** The test mail: the form's recipients, and the alert's name when it has one. */
export const alertTestFields = z.object({
  name: z.string().trim().max(NAME_MAX).optional().default(""),
  recipients: recipientList.refine((l) => l.length > 0, ALERT_MSG.recipients),
});
export type AlertTestEmailInput = z.output<typeof alertTestFields>;
