import { z } from "zod";
import { acknowledgeAlarmSchema, ALARM_KINDS, ALARM_STATES, parseAlarmFilters } from "~/schemas/door-alarms";
import { acknowledgeAlarm, listDoorAlarms, type AlarmRow } from "~/services/door-alarms.server";
import { companyZone } from "~/utils/auth-guards.server";
import { endpoint } from "../define.server";

const tag = "Door alarms";
const PAGE_MAX = 100;

const alarmShape = z.object({
  id: z.number(),
  device_id: z.number(),
  door: z.string(),
  type: z.enum(ALARM_KINDS).describe("heldOpen: the door stood open past its threshold; forced: it opened without an unlock"),
  state: z.enum(ALARM_STATES).describe("active until acknowledged; cleared once acknowledged and the door closed"),
  raised_at: z.number(),
  last_seen_at: z.number().describe("the latest repeat folded into the alarm"),
  repeats: z.number().describe("how many times the board reported it while it was not cleared (1: once)"),
  door_closed_at: z.number().nullable(),
  acknowledged_by: z.string().nullable(),
  acknowledged_at: z.number().nullable(),
  note: z.string(),
  cleared_at: z.number().nullable(),
});

const wire = (r: AlarmRow) => ({
  id: r.id,
  device_id: r.deviceId,
  door: r.door,
  type: r.kind,
  state: r.state,
  raised_at: r.raisedAt,
  last_seen_at: r.lastSeenAt,
  repeats: r.repeats,
  door_closed_at: r.doorClosedAt,
  acknowledged_by: r.acknowledgedBy,
  acknowledged_at: r.acknowledgedAt,
  note: r.note,
  cleared_at: r.clearedAt,
});

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "Use a date as YYYY-MM-DD");

export const doorAlarmEndpoints = [
  endpoint({
    method: "GET",
    path: "/alarm/getAlarms",
    tag,
    summary:
      "The company's door alarms, not cleared ones first, then newest first (activity module). Filters: state, type, device_id, from and to (days in the company's zone, raised on or between them). Paged by page (from 1) and page_size (up to 100, 25 by default).",
    auth: "token",
    permission: { modules: "activity" },
    query: z.object({
      state: z.enum(ALARM_STATES).optional(),
      type: z.enum(ALARM_KINDS).optional(),
      device_id: z.coerce.number().int().positive().optional(),
      from: day.optional(),
      to: day.optional(),
      page: z.coerce.number().int().positive().max(100_000).default(1),
      page_size: z.coerce.number().int().positive().max(PAGE_MAX).default(25),
    }),
    response: z.object({ message: z.string(), payload: z.object({ total: z.number(), alarms: z.array(alarmShape) }) }),
    async handler({ db, auth, query }) {
      const filters = parseAlarmFilters(
        new URLSearchParams(
          Object.entries({ state: query.state, kind: query.type, door: query.device_id, from: query.from, to: query.to }).flatMap(([k, v]) =>
            v === undefined ? [] : [[k, String(v)]],
          ),
        ),
      );
      const { rows, total } = await listDoorAlarms(db, auth, {
        filters,
        tz: companyZone(auth),
        sort: { key: "raisedAt", desc: true },
        page: { offset: (query.page - 1) * query.page_size, limit: query.page_size },
      });
      return { payload: { total, alarms: rows.map(wire) } };
    },
  }),
  endpoint({
    method: "POST",
    path: "/alarm/acknowledgeAlarm",
    tag,
    summary:
      "Acknowledges an active door alarm with a note of what was found (activity module with the modify right). 'Door Alarm Acknowledged'; an alarm whose door has already closed is cleared at once ('Door Alarm Cleared'), otherwise when it closes. 404 outside the caller's company, 409 when the alarm is no longer active.",
    auth: "token",
    permission: { modules: "activity", action: "modify" },
    body: acknowledgeAlarmSchema,
    response: z.object({ message: z.string(), payload: z.object({ id: z.number(), state: z.enum(ALARM_STATES) }) }),
    async handler({ db, auth, body, now }) {
      const r = await acknowledgeAlarm(db, auth, body, now);
      return { message: r.message, payload: { id: body.id, state: r.state } };
    },
  }),
];
