/**
 * The alert form (add and modify, four steps) and the test-mail call, in the spec's wire names so
 * the page, the service and the admin API share one schema. Lenient on shapes (picker objects, ids,
 * JSON strings from hidden form fields, '1'/'0' flags); strict on what is stored. The activity's
 * `alert_conditions` is checked here when the caller sends it, and again by the service against
 * the catalogue; the schedule is checked by the access-window core.
 */
import { z } from "zod";
import { nameText, NAME_MAX } from "./text";

export const ALERT_MSG = {
  name: "Display name is required",
  activity: "Activity is required",
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
  created: "Alert Created",
  modified: "Alert Modified",
  deleted: "Alert deleted",
  emailSent: "Email Sent",
  notFound: "Alert not found",
} as const;

export const DAY_FIELDS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"] as const;
export type DayField = (typeof DAY_FIELDS)[number];
/** The three pickers, in the order of an activity's `alert_conditions` positions. */
export const CONDITION_FIELDS = ["created_by_users", "target_users", "devices"] as const;
export type ConditionField = (typeof CONDITION_FIELDS)[number];
const CONDITION_MSG: Record<ConditionField, string> = {
  created_by_users: ALERT_MSG.createdBy,
  target_users: ALERT_MSG.targetUsers,
  devices: ALERT_MSG.devices,
};

export const MAX_TARGETS = 200;
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

const flag = z.preprocess((v) => v === true || v === 1 || v === "1" || v === "true" || v === "on", z.boolean());

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

/** Recipients: picked users (`{id, e_mail}`, type User) or typed addresses (a string, or type Email); duplicates by id or address dropped. */
export const recipientList = z.preprocess(
  (v) => {
    const x = json(v);
    const list = Array.isArray(x) ? x : typeof x === "string" ? x.split(/[,;\s]+/).filter(Boolean) : x == null ? [] : [x];
    return list.map((e) => {
      if (typeof e === "string") return { userId: null, email: e };
      const o = (e ?? {}) as { id?: unknown; userId?: unknown; e_mail?: unknown; email?: unknown; type?: unknown };
      const isUser = o.type !== "Email" && (o.userId ?? o.id) != null && (o.userId ?? o.id) !== "";
      return { userId: isUser ? Number(o.userId ?? o.id) : null, email: String(o.e_mail ?? o.email ?? "") };
    });
  },
  z
    .array(
      // A picked user's address is looked up by the server; a typed one must be an address.
      z
        .object({ userId: z.number().int().positive().nullable(), email: z.union([z.literal(""), email]) })
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
export type Recipient = { userId: number | null; email: string };

/** The activity: a picker object `{id?, name, type, alert_conditions}`, a name, or an id. */
const activityRef = z.preprocess(
  (v) => {
    const x = json(v);
    if (x == null || x === "") return undefined;
    if (typeof x === "number" || (typeof x === "string" && /^\d+$/.test(x.trim()))) return { id: Number(x) };
    if (typeof x === "string") return { name: x.trim() };
    return x;
  },
  z.object(
    {
      id: z.coerce.number().int().positive().optional(),
      name: z.string().trim().max(NAME_MAX).optional(),
      alert_conditions: z
        .string()
        .regex(/^[01]{3}$/)
        .optional(),
    },
    { required_error: ALERT_MSG.activity, invalid_type_error: ALERT_MSG.activity },
  ),
);

const base = z.object({
  displayName: nameText("Display name", NAME_MAX, ALERT_MSG.name),
  activity: activityRef,
  created_by_users: targetList,
  target_users: targetList,
  devices: targetList,
  schedule: z.enum(["any", "custom"], { errorMap: () => ({ message: ALERT_MSG.schedule }) }),
  startDate: dateText,
  endDate: dateText,
  isNeverEnd: flag,
  mon: flag,
  tue: flag,
  wed: flag,
  thu: flag,
  fri: flag,
  sat: flag,
  sun: flag,
  isAllDay: flag,
  startTime: timeText,
  endTime: timeText,
  zone: zoneId,
  emails: recipientList,
});
type Base = z.infer<typeof base>;

/** The spec also calls the name `name`, the zone `time_zone`, and sends stored-shape names: accept them. */
function aliases(v: unknown) {
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
  o.activity ??= o.activityId ?? o.activity_id;
  if (typeof o.days === "string" && /^[01]{7}$/.test(o.days)) DAY_FIELDS.forEach((d, i) => (o[d] ??= (o.days as string)[i] === "1"));
  return o;
}

/** The activity's conditions say which pickers are required (position 1 created-by, 2 target users, 3 devices). */
export function conditionIssues(conditions: string, v: Pick<Base, ConditionField>): { field: ConditionField; message: string }[] {
  return CONDITION_FIELDS.filter((f, i) => conditions[i] === "1" && v[f].length === 0).map((field) => ({ field, message: CONDITION_MSG[field] }));
}

function checkAlert(v: Base, ctx: z.RefinementCtx) {
  const issue = (path: string, message: string) => ctx.addIssue({ code: "custom", path: [path], message });
  if (!v.activity.id && !v.activity.name) issue("activity", ALERT_MSG.activity);
  if (v.activity.alert_conditions) for (const x of conditionIssues(v.activity.alert_conditions, v)) issue(x.field, x.message);
  if (v.schedule === "custom") {
    if (!v.startDate) issue("startDate", ALERT_MSG.startDate);
    if (!v.isNeverEnd && (!v.endDate || (v.startDate && v.endDate < v.startDate))) issue("endDate", ALERT_MSG.endDate);
    if (!DAY_FIELDS.some((d) => v[d])) issue("days", ALERT_MSG.days);
    if (!v.isAllDay && (!v.startTime || !v.endTime)) issue(v.startTime ? "endTime" : "startTime", ALERT_MSG.times);
    if (v.zone == null) issue("zone", ALERT_MSG.zone);
  }
  if (v.emails.length === 0) issue("emails", ALERT_MSG.recipients);
}

/** Never-ends clears the end date, all-day the times; an "any" schedule keeps no custom fields. */
function normalise<T extends Base>(v: T): T {
  if (v.schedule === "any")
    return { ...v, startDate: "", endDate: "", isNeverEnd: true, isAllDay: true, startTime: "", endTime: "", ...Object.fromEntries(DAY_FIELDS.map((d) => [d, true])) };
  return { ...v, endDate: v.isNeverEnd ? "" : v.endDate, startTime: v.isAllDay ? "" : v.startTime, endTime: v.isAllDay ? "" : v.endTime };
}

export const addAlertSchema = z.preprocess(aliases, base.superRefine(checkAlert).transform(normalise));
export const modifyAlertSchema = z.preprocess(aliases, base.extend({ id: z.coerce.number().int().positive() }).superRefine(checkAlert).transform(normalise));
export type AddAlertInput = z.output<typeof addAlertSchema>;
export type ModifyAlertInput = z.output<typeof modifyAlertSchema>;

/** The test mail: the recipients of the form (`emails` or `recipients`), optionally the alert's name. */
export const alertTestEmailSchema = z.preprocess(
  aliases,
  z.object({
    displayName: z.string().trim().max(NAME_MAX).optional().default(""),
    emails: recipientList.refine((l) => l.length > 0, ALERT_MSG.recipients),
  }),
);
export type AlertTestEmailInput = z.output<typeof alertTestEmailSchema>;
