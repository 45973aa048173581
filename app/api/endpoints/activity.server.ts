import { z } from "zod";
import { activityFilterSchema, activityNoteSchema } from "~/schemas/activity";
import { backfillSchema } from "~/schemas/activity-backfill";
import * as activity from "~/services/activity.server";
import { backfillActivityLogs } from "~/services/activity-backfill.server";
import { assertActivityReader } from "~/utils/auth-guards.server";
import { companyLogDb } from "~/utils/company-log.server";
import { endpoint, type Permission } from "../define.server";
import { wireObject } from "../wire-fields.server";

const tag = "Activity";
const idQuery = z.object({ id: z.coerce.number({ invalid_type_error: "id must be a number" }).int().positive() });

/**
 * The log's reads: the activity module, or the platform administrator, whose company's log is the platform's
 * audit trail (decision 0071). A reseller's company module alone is refused, before the body.
 */
const reader: Permission = { modules: ["activity", "company"], guard: (_, auth) => assertActivityReader(auth) };
const AUDIT = " The platform administrator (the root company's company module) reads the root company's log, the platform's audit trail, read-only.";

const namedShape = z.object({ id: z.number(), dispay_name: z.string() }).nullable();
const activityRow = z.object({
  id: z.number(),
  activity_timestamp: z.number().describe("epoch milliseconds"),
  activity: z.object({ name: z.string(), type: z.string(), alert_conditions: z.string(), first_section_info: z.string(), details_section_info: z.string() }),
  activity_name: z.string().describe("the name as shown: sensor activities take the device's custom sensor name"),
  details_json: z.record(z.unknown()),
  target_device: z
    .object({
      id: z.number(),
      display_name: z.string(),
      full_name: z.string(),
      sensor1_open_name: z.string(),
      sensor1_close_name: z.string(),
      sensor2_open_name: z.string(),
      sensor2_close_name: z.string(),
    })
    .nullable(),
  target_device_group: z.object({ id: z.number(), full_name: z.string(), display_name: z.string() }).nullable(),
  created_by_user: namedShape,
  target_user: namedShape,
  created_by_user_id: z.number().nullable(),
  target_user_id: z.number().nullable(),
  target_device_id: z.number().nullable(),
  target_device_group_id: z.number().nullable(),
  operation_type: z.string(),
  summary: z.string(),
  gps_location: z.string().nullable(),
});
const note = z.object({ id: z.number(), createdAt: z.number(), User: z.object({ dispay_name: z.string() }), note_description: z.string() });

const named = (x: { id: number; displayName: string } | null) => x && { id: x.id, dispay_name: x.displayName };

/** A log entry in the spec's names (dispay_name sic). */
function rowPayload(r: activity.ActivityRow): z.infer<typeof activityRow> {
  const a = r.activityType;
  const d = r.targetDevice;
  const g = r.targetDeviceGroup;
  return {
    id: r.id,
    activity_timestamp: r.at,
    activity: { name: a.name, type: a.type, alert_conditions: a.alertConditions, first_section_info: a.firstSectionInfo, details_section_info: a.detailsSectionInfo },
    activity_name: r.activityName,
    details_json: r.details,
    target_device: d && {
      id: d.id,
      display_name: d.displayName,
      full_name: d.fullName,
      sensor1_open_name: d.sensor1OpenName,
      sensor1_close_name: d.sensor1CloseName,
      sensor2_open_name: d.sensor2OpenName,
      sensor2_close_name: d.sensor2CloseName,
    },
    target_device_group: g && { id: g.id, full_name: g.fullName, display_name: g.displayName },
    created_by_user: named(r.createdByUser),
    target_user: named(r.targetUser),
    created_by_user_id: r.createdByUserId,
    target_user_id: r.targetUserId,
    target_device_id: r.targetDeviceId,
    target_device_group_id: r.targetDeviceGroupId,
    operation_type: r.operationType,
    summary: r.summary,
    gps_location: r.gpsLocation,
  };
}

const notePayload = (n: activity.ActivityNote): z.infer<typeof note> => ({ id: n.id, createdAt: n.createdAt, User: { dispay_name: n.author }, note_description: n.note });

export const activityEndpoints = [
  endpoint({
    method: "POST",
    path: "/user/activityLogs",
    tag,
    summary:
      "One page (0-based, default 100 rows) of the company's activity log. Dates are whole days and times a daily window, both in `tz` (default: the company's zone); one date alone is open at its other end, one time alone runs to or from midnight; id+type filters by Triggered By, User, Device or Device Group; `events` (activity names, with `additionalFilter`) keeps any of them, `person` a user who triggered the entry or is its user, `door` a device, `q` text in the summary or a person's, device's or group's name; sort is a column name, '-' for descending (default '-date'). Without dates the page covers the company's hot window; `archivedBefore` (epoch ms, null while nothing is archived) says where it begins, and dates before it search the archive." +
      AUDIT,
    auth: "token",
    permission: reader,
    body: activityFilterSchema,
    response: z.object({
      payload: z.object({
        rows: z.array(activityRow),
        total: z.number(),
        page: z.number(),
        pageSize: z.number(),
        tz: z.string(),
        archivedBefore: z
          .number()
          .nullable()
          .describe("Entries before this instant (epoch ms) are in the archive: a date range reaches them. Null while the whole log is at hand."),
      }),
    }),
    async handler({ env, auth, core, body, now }) {
      const { db, archivedBefore } = await activity.activityLog(env, auth, body, now);
      const page = await activity.listActivity(db, auth, body, core);
      return { payload: { ...page, rows: page.rows.map(rowPayload), archivedBefore } };
    },
  }),
  endpoint({
    method: "POST",
    path: "/user/activityReport",
    tag,
    summary: `The filtered log as CSV text (every page, at most ${activity.REPORT_LIMIT} rows; save it as ${activity.REPORT_FILE}). Without dates it covers the hot window; dates before it read the archive.${AUDIT}`,
    auth: "token",
    permission: reader,
    body: activityFilterSchema,
    response: z.object({ payload: z.string() }),
    async handler({ env, auth, core, body, now }) {
      return { payload: await activity.activityReport((await activity.activityLog(env, auth, body, now)).db, auth, body, core) };
    },
  }),
  endpoint({
    method: "POST",
    path: "/user/createActivityLogNotes",
    tag,
    summary: "Adds a note to activity `id` (needs the add right). 400 when the note is empty, 404 outside the caller's company.",
    auth: "token",
    permission: { modules: "activity", action: "add" },
    body: wireObject(activityNoteSchema, { id: "id", note: "note_description" }),
    response: z.object({ message: z.string(), payload: z.object({ id: z.number() }) }),
    async handler({ env, db, auth, body, now }) {
      const r = await activity.addNote(db, companyLogDb(env, auth.company.id), auth, body, now);
      return { message: r.message, payload: { id: r.id } };
    },
  }),
  endpoint({
    method: "GET",
    path: "/user/getActivityLogNotes",
    tag,
    summary: "The notes of activity `id`, oldest first (404 outside the caller's company).",
    auth: "token",
    permission: reader,
    query: idQuery,
    response: z.object({ payload: z.array(note) }),
    async handler({ env, auth, query }) {
      return { payload: (await activity.listNotes(companyLogDb(env, auth.company.id), auth, query.id)).map(notePayload) };
    },
  }),
  endpoint({
    method: "GET",
    path: "/user/getActivityOptions",
    tag,
    summary: "Picker options: activity names with their type, and the company's users, devices and device groups.",
    auth: "token",
    permission: reader,
    response: z.object({
      payload: z.object({
        activities: z.array(z.object({ id: z.number(), name: z.string(), type: z.string(), alert_conditions: z.string() })),
        users: z.array(z.object({ id: z.number(), name: z.string(), e_mail: z.string(), type: z.literal("User") })),
        devices: z.array(z.object({ id: z.number(), name: z.string(), type: z.literal("Device") })),
        deviceGroups: z.array(z.object({ id: z.number(), name: z.string(), type: z.literal("Device Group") })),
      }),
    }),
    async handler({ db, auth }) {
      const o = await activity.getActivityOptions(db, auth);
      return {
        payload: {
          ...o,
          activities: o.activities.map(({ id, name, type, alertConditions }) => ({ id, name, type, alert_conditions: alertConditions })),
          users: o.users.map(({ id, name, email, type }) => ({ id, name, e_mail: email, type })),
        },
      };
    },
  }),
  endpoint({
    method: "POST",
    path: "/platform/backfillActivityLogs",
    tag,
    summary:
      "Platform root only (company module, modify right): one step of moving each company's activity log into its own store, companies after `afterCompanyId` in id order, at most `companies` of them and 20,000 rows each: the store copies the rows, then they are deleted from the shared database once the alert engine has read them. Each company's answer says how many rows it copied and deleted, how many its store holds and the store's size in bytes. Call again with `next` until it is null; a stopped run resumes where it stopped, and rows already copied are never copied twice (`npm run activity:backfill`).",
    auth: "token",
    permission: { modules: "company", action: "modify" },
    body: backfillSchema,
    response: z.object({
      payload: z.object({
        companies: z.array(z.object({ companyId: z.number(), copied: z.number(), deleted: z.number(), rows: z.number(), bytes: z.number(), done: z.boolean() })),
        next: z.number().nullable(),
      }),
    }),
    async handler({ db, env, auth, body }) {
      return { payload: await backfillActivityLogs(db, env, auth, body) };
    },
  }),
];
