/**
 * Lockdown and evacuation plans, and starting and ending them (issue 31, docs/decisions/0083-lockdown.md).
 * The company_settings module's holders: view to read, add / modify / delete to change plans, modify to
 * start and end. An API caller confirms a start by calling; the console asks twice.
 */
import { z } from "zod";
import { LOCKDOWN_MODES, LOCKDOWN_MSG, LOCKDOWN_SCOPES, lockdownPlanFields } from "~/schemas/lockdown";
import * as lockdown from "~/services/lockdown.server";
import type { LockdownPlan } from "~/services/lockdown.server";
import { endpoint } from "../define.server";
import { wireObject, withWireFields } from "../wire-fields.server";

const tag = "Lockdown";
const MODULE = "company_settings";
const WIRE = {
  name: "name",
  mode: "mode",
  scope: "scope",
  scopeIds: "scope_ids",
  exemptUserIds: "exempt_user_ids",
  exemptRoleIds: "exempt_role_ids",
  panicDoorIds: "panic_door_ids",
  phoneTriggerUserIds: "phone_trigger_user_ids",
  phoneTriggerRoleIds: "phone_trigger_role_ids",
  durationMinutes: "duration_minutes",
} as const;
const body = wireObject(lockdownPlanFields, WIRE);
const id = (v: string) => Number(/^\d{1,15}$/.test(v) ? v : NaN);

const planShape = z.object({
  id: z.number(),
  name: z.string(),
  mode: z.enum(LOCKDOWN_MODES).describe("lockdown: every credential refused but the exempt; evacuation: the doors in scope unlock"),
  scope: z.enum(LOCKDOWN_SCOPES),
  scope_ids: z.array(z.number()).describe("device group ids (scope groups) or device ids (scope doors); empty for the company"),
  exempt_user_ids: z.array(z.number()),
  exempt_role_ids: z.array(z.number()),
  panic_door_ids: z.array(z.number()).describe("doors whose wired panic button (board event panic.pressed) starts this plan"),
  phone_trigger_user_ids: z
    .array(z.number())
    .describe("users who may start this plan from the phone app (POST /api/mobile/lockdown/start), and end it from there while it is in force"),
  phone_trigger_role_ids: z.array(z.number()).describe("roles whose users may start this plan from the phone app, and end it from there while it is in force"),
  duration_minutes: z.number().nullable().describe("ends by itself this long after its start; null: until someone ends it"),
});
const planPayload = (r: LockdownPlan) => ({
  id: r.id,
  name: r.name,
  mode: r.mode,
  scope: r.scope,
  scope_ids: r.scopeIds,
  exempt_user_ids: r.exemptUserIds,
  exempt_role_ids: r.exemptRoleIds,
  panic_door_ids: r.panicDoorIds,
  phone_trigger_user_ids: r.phoneTriggerUserIds,
  phone_trigger_role_ids: r.phoneTriggerRoleIds,
  duration_minutes: r.durationMinutes,
});
const stateShape = z
  .object({
    mode: z.enum(LOCKDOWN_MODES),
    plan_name: z.string(),
    started_by: z.string(),
    started_at: z.number(),
    ends_at: z.number().nullable(),
  })
  .nullable();
const message = z.object({ message: z.string() });
const listQuery = z.object({ limit: z.coerce.number().int().min(1).max(500).default(100), offset: z.coerce.number().int().min(0).default(0) });

export const lockdownEndpoints = [
  endpoint({
    method: "GET",
    path: "/lockdown/plans",
    tag,
    summary: "The company's lockdown and evacuation plans, by name.",
    auth: "token",
    permission: { modules: MODULE },
    query: listQuery,
    response: z.object({ payload: z.object({ rows: z.array(planShape), total: z.number() }) }),
    async handler({ db, auth, query }) {
      const r = await lockdown.listPlans(db, auth, { offset: query.offset, pageSize: query.limit });
      return { payload: { rows: r.rows.map(planPayload), total: r.total } };
    },
  }),
  endpoint({
    method: "POST",
    path: "/lockdown/plans",
    tag,
    summary: "Adds a plan ('Lockdown Plan Added'). 400 with field errors (an id not of the company's is one).",
    auth: "token",
    permission: { modules: MODULE, action: "add" },
    body,
    response: message.extend({ payload: z.object({ id: z.number() }) }),
    async handler({ db, auth, body, now }) {
      const planId = await withWireFields(WIRE, () => lockdown.addPlan(db, auth, body, now));
      return { message: LOCKDOWN_MSG.created, payload: { id: planId } };
    },
  }),
  endpoint({
    method: "GET",
    path: "/lockdown/plans/:id",
    tag,
    summary: "One plan.",
    auth: "token",
    permission: { modules: MODULE },
    response: z.object({ payload: planShape }),
    async handler({ db, auth, params }) {
      return { payload: planPayload(await lockdown.getPlan(db, auth, id(params.id))) };
    },
  }),
  endpoint({
    method: "PUT",
    path: "/lockdown/plans/:id",
    tag,
    summary: "Replaces a plan ('Lockdown Plan Modified'); a lockdown in force keeps the plan as it was started.",
    auth: "token",
    permission: { modules: MODULE, action: "modify" },
    body,
    response: message,
    async handler({ db, auth, body, params, now }) {
      await withWireFields(WIRE, () => lockdown.modifyPlan(db, auth, { ...body, id: id(params.id) }, now));
      return { message: LOCKDOWN_MSG.modified };
    },
  }),
  endpoint({
    method: "DELETE",
    path: "/lockdown/plans/:id",
    tag,
    summary: "Deletes a plan ('Lockdown Plan Deleted').",
    auth: "token",
    permission: { modules: MODULE, action: "delete" },
    response: message,
    async handler({ db, auth, params, now }) {
      await lockdown.deletePlan(db, auth, { id: id(params.id) }, now);
      return { message: LOCKDOWN_MSG.deleted };
    },
  }),
  endpoint({
    method: "POST",
    path: "/lockdown/plans/:id/start",
    tag,
    summary: "Starts the plan ('Lockdown Started'); gateways refuse or unlock at once. 409 when a lockdown is already in force.",
    auth: "token",
    permission: { modules: MODULE, action: "modify" },
    response: message.extend({ payload: z.object({ epoch: z.number().describe("the company's lockdown epoch after the start"), ends_at: z.number().nullable() }) }),
    async handler({ db, auth, params, now }) {
      const r = await lockdown.startLockdown(db, auth, { id: id(params.id) }, now);
      return { message: LOCKDOWN_MSG.started, payload: { epoch: r.epoch, ends_at: r.endsAt } };
    },
  }),
  endpoint({
    method: "POST",
    path: "/lockdown/end",
    tag,
    summary: "Ends the lockdown in force ('Lockdown Ended'). 409 when none is.",
    auth: "token",
    permission: { modules: MODULE, action: "modify" },
    response: message,
    async handler({ db, auth, now }) {
      await lockdown.endLockdown(db, auth, now);
      return { message: LOCKDOWN_MSG.ended };
    },
  }),
  endpoint({
    method: "GET",
    path: "/lockdown/state",
    tag,
    summary: "The lockdown in force, or null.",
    auth: "token",
    permission: { modules: MODULE },
    response: z.object({ payload: stateShape }),
    async handler({ db, auth, now }) {
      const s = await lockdown.lockdownBanner(db, auth.company.id, now);
      return { payload: s && { mode: s.mode, plan_name: s.planName, started_by: s.startedBy, started_at: s.startedAt, ends_at: s.endsAt } };
    },
  }),
];
