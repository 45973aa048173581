/**
 * Lockdown and evacuation (issue 31, docs/decisions/0083-lockdown.md). A company keeps plans; starting one
 * copies it into the company's single `company_lockdowns` row (epoch + 1), ending it stamps `ended_at`
 * (epoch + 1 again); a user joining or leaving one of its exempt roles while it is in force raises the
 * epoch too (a trigger, migration 0061), so boards take the refreshed exempt list. Gateways mirror that row
 * through the change feed (trigger in migration 0050) and decide by it at the door
 * (gateway/src/access/lockdown.js); the console decides by the same rule (`lockdownAt` in
 * door-decision.server.ts). Every step writes its audit entry in the same batch.
 */
import { and, asc, count, eq, inArray, isNotNull, isNull, lte, ne, sql, type SQL } from "drizzle-orm";
import { DEACTIVATED } from "~/schemas/device-groups";
import { LOCKDOWN_MSG, lockdownPlanIdSchema, lockdownPlanModifySchema, lockdownPlanSchema, lockdownStartSchema, type LockdownPlanInput } from "~/schemas/lockdown";
import { activityInsert, activityInsertWhen } from "~/utils/activity-insert.server";
import { failLockedDownStatements } from "./device-commands.server";
import { assertCan, type Auth } from "~/utils/auth-guards.server";
import { schema, type Db } from "~/utils/db.server";
import { notFound, ServiceError } from "~/utils/errors.server";
import { parseInput } from "~/utils/parse-input.server";
import { noteGatewayWake } from "~/utils/request-scope.server";
import { liveInCompany } from "~/utils/tenant.server";

const p = schema.lockdownPlans;
const l = schema.companyLockdowns;
/** Lockdown lives with the company's settings: viewing needs the module, changing and starting need modify. */
const MODULE = "company_settings" as const;

export type LockdownPlan = Omit<typeof p.$inferSelect, "scopeIds" | "exemptUserIds" | "exemptRoleIds" | "panicDoorIds" | "phoneTriggerUserIds" | "phoneTriggerRoleIds"> & {
  scopeIds: number[];
  exemptUserIds: number[];
  exemptRoleIds: number[];
  panicDoorIds: number[];
  phoneTriggerUserIds: number[];
  phoneTriggerRoleIds: number[];
};

const idList = (json: string): number[] => {
  const v = JSON.parse(json || "[]");
  return Array.isArray(v) ? v.filter((x) => Number.isSafeInteger(x)) : [];
};
export const planOf = (r: typeof p.$inferSelect): LockdownPlan => ({
  ...r,
  scopeIds: idList(r.scopeIds),
  exemptUserIds: idList(r.exemptUserIds),
  exemptRoleIds: idList(r.exemptRoleIds),
  panicDoorIds: idList(r.panicDoorIds),
  phoneTriggerUserIds: idList(r.phoneTriggerUserIds),
  phoneTriggerRoleIds: idList(r.phoneTriggerRoleIds),
});

/** A row of `company_lockdowns` in force at `now`: started, not ended, its duration not run out. */
export const isInForce = (r: { startedAt: number | null; endedAt: number | null; endsAt: number | null } | undefined, now: number) =>
  Boolean(r && r.startedAt != null && r.endedAt == null && (r.endsAt == null || now < r.endsAt));

export async function listPlans(db: Db, auth: Auth, o: { offset: number; pageSize: number }) {
  assertCan(auth, MODULE);
  const where = liveInCompany(p, auth);
  const [rows, [{ total }]] = await db.batch([
    db.select().from(p).where(where).orderBy(asc(p.name), asc(p.id)).limit(o.pageSize).offset(o.offset),
    db.select({ total: count() }).from(p).where(where),
  ]);
  return { rows: rows.map(planOf), total };
}

export async function getPlan(db: Db, auth: Auth, id: number): Promise<LockdownPlan> {
  assertCan(auth, MODULE);
  const [row] = await db
    .select()
    .from(p)
    .where(liveInCompany(p, auth, eq(p.id, id)));
  return row ? planOf(row) : notFound(LOCKDOWN_MSG.notFound);
}

/** The groups, doors, users and roles a plan names must all be the caller's company's live ones. */
async function checkRefs(db: Db, auth: Auth, v: LockdownPlanInput) {
  const s = schema;
  const want = async (ids: number[], table: typeof s.deviceGroups | typeof s.devices | typeof s.users, field: string) => {
    if (ids.length === 0) return;
    const rows = await db
      .select({ id: table.id })
      .from(table)
      .where(liveInCompany(table, auth, inArray(table.id, ids)));
    if (rows.length !== new Set(ids).size) throw new ServiceError(400, LOCKDOWN_MSG.badId, { fieldErrors: { [field]: [LOCKDOWN_MSG.badId] } });
  };
  await want(v.scope === "groups" ? v.scopeIds : [], s.deviceGroups, "scopeIds");
  await want(v.scope === "doors" ? v.scopeIds : [], s.devices, "scopeIds");
  await want(v.exemptUserIds, s.users, "exemptUserIds");
  await want(v.panicDoorIds, s.devices, "panicDoorIds");
  await want(v.phoneTriggerUserIds, s.users, "phoneTriggerUserIds");
  const wantRoles = async (ids: number[], field: string) => {
    if (ids.length === 0) return;
    const rows = await db
      .select({ id: s.roles.id })
      .from(s.roles)
      .where(and(eq(s.roles.companyId, auth.company.id), inArray(s.roles.id, ids)));
    if (rows.length !== new Set(ids).size) throw new ServiceError(400, LOCKDOWN_MSG.badId, { fieldErrors: { [field]: [LOCKDOWN_MSG.badId] } });
  };
  await wantRoles(v.exemptRoleIds, "exemptRoleIds");
  await wantRoles(v.phoneTriggerRoleIds, "phoneTriggerRoleIds");
}

const planColumns = (v: LockdownPlanInput) => ({
  name: v.name,
  mode: v.mode,
  scope: v.scope,
  scopeIds: JSON.stringify(v.scope === "company" ? [] : [...new Set(v.scopeIds)]),
  exemptUserIds: JSON.stringify([...new Set(v.exemptUserIds)]),
  exemptRoleIds: JSON.stringify([...new Set(v.exemptRoleIds)]),
  panicDoorIds: JSON.stringify([...new Set(v.panicDoorIds)]),
  phoneTriggerUserIds: JSON.stringify([...new Set(v.phoneTriggerUserIds)]),
  phoneTriggerRoleIds: JSON.stringify([...new Set(v.phoneTriggerRoleIds)]),
  durationMinutes: v.durationMinutes,
});

export async function addPlan(db: Db, auth: Auth, input: unknown, now: number): Promise<number> {
  assertCan(auth, MODULE, "add");
  const v = parseInput(lockdownPlanSchema, input);
  await checkRefs(db, auth, v);
  const [[row]] = await db.batch([
    db
      .insert(p)
      .values({ companyId: auth.company.id, ...planColumns(v), createdAt: now, updatedAt: now })
      .returning({ id: p.id }),
    activityInsert(db, {
      companyId: auth.company.id,
      name: "Lockdown Plan Added",
      createdByUserId: auth.user.id,
      summary: `Lockdown plan ${v.name} added`,
      details: { mode: v.mode, scope: v.scope },
      at: now,
    }),
  ]);
  return row.id;
}

export async function modifyPlan(db: Db, auth: Auth, input: unknown, now: number): Promise<void> {
  assertCan(auth, MODULE, "modify");
  const v = parseInput(lockdownPlanModifySchema, input);
  await getPlan(db, auth, v.id);
  await checkRefs(db, auth, v);
  await db.batch([
    db
      .update(p)
      .set({ ...planColumns(v), updatedAt: now })
      .where(liveInCompany(p, auth, eq(p.id, v.id))),
    activityInsert(db, {
      companyId: auth.company.id,
      name: "Lockdown Plan Modified",
      createdByUserId: auth.user.id,
      summary: `Lockdown plan ${v.name} modified`,
      details: { planId: v.id },
      at: now,
    }),
  ]);
}

export async function deletePlan(db: Db, auth: Auth, input: unknown, now: number): Promise<void> {
  assertCan(auth, MODULE, "delete");
  const { id } = parseInput(lockdownPlanIdSchema, input);
  const plan = await getPlan(db, auth, id);
  await db.batch([
    db
      .update(p)
      .set({ deletedAt: now, updatedAt: now })
      .where(liveInCompany(p, auth, eq(p.id, id))),
    activityInsert(db, {
      companyId: auth.company.id,
      name: "Lockdown Plan Deleted",
      createdByUserId: auth.user.id,
      summary: `Lockdown plan ${plan.name} deleted`,
      details: { planId: id },
      at: now,
    }),
  ]);
}

/** Whether no lockdown of the company is in force as the statement runs (the guard of a start). */
const noneInForce = (companyId: number, now: number): SQL =>
  sql`not exists (select 1 from ${l} where ${l.companyId} = ${companyId} and ${l.startedAt} is not null and ${l.endedAt} is null and (${l.endsAt} is null or ${l.endsAt} > ${now}))`;

/**
 * Starts a plan. From the console `confirmName` is the plan's name typed again (the second step of the
 * confirmation); the admin API's caller confirms by calling. A lockdown already in force is a 409.
 */
export async function startLockdown(db: Db, auth: Auth, input: unknown, now: number, opts: { confirm: boolean } = { confirm: false }) {
  assertCan(auth, MODULE, "modify");
  const { id, confirmName } = parseInput(lockdownStartSchema, input);
  const plan = await getPlan(db, auth, id);
  if (opts.confirm && confirmName.toLowerCase() !== plan.name.toLowerCase())
    throw new ServiceError(400, LOCKDOWN_MSG.confirm, { fieldErrors: { confirmName: [LOCKDOWN_MSG.confirm] } });
  const started = await startPlan(db, auth.company.id, plan, { userId: auth.user.id, name: auth.user.displayName || auth.user.email }, now);
  if (!started) throw new ServiceError(409, LOCKDOWN_MSG.alreadyActive);
  return started;
}

/** Who starts or ends a lockdown: a person (`fromPhone`: through the phone app, an "App" entry) or, with no user, a panic button. */
export type LockdownActor = { userId: number | null; name: string; fromPhone?: boolean };
const fromPhoneText = (a: { fromPhone?: boolean }) => (a.fromPhone ? " from the phone" : "");

/**
 * Starts `plan` for its company unless a lockdown is in force (then null), in one guarded batch: the state
 * row and its audit entry. `triggerEventId`: the board event that asked for it (a panic button), which
 * starts nothing when it already started a lockdown.
 */
export async function startPlan(db: Db, companyId: number, plan: LockdownPlan, actor: LockdownActor, now: number, triggerEventId: string | null = null) {
  // One that ran out but was not swept yet is ended first, so its end is in the log before the new start.
  await endExpiredLockdowns(db, now, companyId);
  const by = actor.name;
  const endsAt = plan.durationMinutes ? now + plan.durationMinutes * 60_000 : null;
  const state = {
    planId: plan.id,
    planName: plan.name,
    mode: plan.mode,
    scope: plan.scope,
    scopeIds: JSON.stringify(plan.scopeIds),
    exemptUserIds: JSON.stringify(plan.exemptUserIds),
    exemptRoleIds: JSON.stringify(plan.exemptRoleIds),
    startedByUserId: actor.userId,
    startedByName: by,
    startedAt: now,
    endsAt,
    endedAt: null,
    endedByName: null,
    triggerEventId,
  };
  const guard = triggerEventId
    ? sql`${noneInForce(companyId, now)} and not exists (select 1 from ${l} where ${l.companyId} = ${companyId} and ${l.triggerEventId} = ${triggerEventId})`
    : noneInForce(companyId, now);
  const [, started] = await db.batch([
    activityInsertWhen(
      db,
      {
        companyId,
        name: "Lockdown Started",
        ...(actor.fromPhone ? { operationType: "App" as const } : {}),
        createdByUserId: actor.userId,
        summary: `${plan.mode === "evacuation" ? "Evacuation" : "Lockdown"} ${plan.name} started by ${by}${fromPhoneText(actor)}`,
        details: { planId: plan.id, mode: plan.mode, scope: plan.scope, endsAt, ...(actor.fromPhone ? { via: "phone" } : {}) },
        at: now,
      },
      guard,
    ),
    db
      .insert(l)
      .values({ companyId, epoch: 1, ...state })
      .onConflictDoUpdate({ target: l.companyId, set: { ...state, epoch: sql`${l.epoch} + 1` }, setWhere: guard })
      .returning({ epoch: l.epoch }),
    // An unlock asked before the start and not yet answered must not open a door it now covers.
    ...failLockedDownStatements(db, now, eq(schema.deviceCommands.companyId, companyId)),
  ]);
  if (started.length === 0) return null;
  noteGatewayWake(companyId);
  return { epoch: started[0].epoch, endsAt };
}

/** How late a panic button's event may arrive and still start a lockdown: one from a board that was cut off for longer is only logged. */
export const PANIC_FRESH_MS = 10 * 60_000;

/**
 * A wired panic button was pressed at a door (board event `panic.pressed`, already in the activity log):
 * starts the company's plan that names the door among its panic doors, unless a lockdown is in force, the
 * event is older than PANIC_FRESH_MS, or this event already started one. Several plans naming the door: the
 * first by id.
 */
export async function panicPressed(db: Db, e: { id: string; at: number; companyId: number; deviceId: number; door: string }, now: number): Promise<boolean> {
  if (now - e.at > PANIC_FRESH_MS) return false;
  const [row] = await db
    .select()
    .from(p)
    .where(and(eq(p.companyId, e.companyId), isNull(p.deletedAt), sql`exists (select 1 from json_each(${p.panicDoorIds}) where value = ${e.deviceId})`))
    .orderBy(asc(p.id))
    .limit(1);
  if (!row) return false;
  return (await startPlan(db, e.companyId, planOf(row), { userId: null, name: `Panic button at ${e.door}` }, now, e.id)) != null;
}

/** Ends the company's lockdown in force; 409 when there is none. */
export async function endLockdown(db: Db, auth: Auth, now: number) {
  assertCan(auth, MODULE, "modify");
  await endLockdownAs(db, auth.company.id, { userId: auth.user.id, name: auth.user.displayName || auth.user.email }, now);
}

/** Ends the company's lockdown in force as `actor` (who may is the caller's business); 409 when there is none. */
export async function endLockdownAs(db: Db, companyId: number, actor: LockdownActor, now: number) {
  const ended = await endWhere(db, now, eq(l.companyId, companyId), actor.name, actor.userId, actor.fromPhone);
  if (ended === 0) throw new ServiceError(409, LOCKDOWN_MSG.notActive);
}

/** Rows in force (not yet past their duration at `now`) matching `where` are ended by `by`, each with its audit entry. */
async function endWhere(db: Db, now: number, where: SQL, by: string | null, userId: number | null, fromPhone = false): Promise<number> {
  const rows = await db
    .select({ companyId: l.companyId, epoch: l.epoch, planName: l.planName, mode: l.mode, startedAt: l.startedAt, endsAt: l.endsAt })
    .from(l)
    .where(and(where, isNotNull(l.startedAt), isNull(l.endedAt)));
  if (rows.length === 0) return 0;
  await db.batch(
    rows.flatMap((r) => {
      // An automatic end is stamped at the instant the duration ran out, whenever the sweep runs.
      const at = by == null ? (r.endsAt ?? now) : now;
      // The same lockdown, still in force: known by its start, not its epoch, which a change of who holds an
      // exempt role also raises (migration 0061) and which must not make this end miss it.
      const still = and(eq(l.companyId, r.companyId), eq(l.startedAt, r.startedAt!), isNull(l.endedAt))!;
      return [
        activityInsertWhen(
          db,
          {
            companyId: r.companyId,
            name: "Lockdown Ended",
            ...(fromPhone ? { operationType: "App" as const } : {}),
            createdByUserId: userId,
            summary: `${r.mode === "evacuation" ? "Evacuation" : "Lockdown"} ${r.planName} ended ${by == null ? "automatically" : `by ${by}${fromPhoneText({ fromPhone })}`}`,
            details: { epoch: r.epoch + 1, mode: r.mode, automatic: by == null, ...(fromPhone ? { via: "phone" } : {}) },
            at,
          },
          sql`exists (select 1 from ${l} where ${still})`,
        ),
        db
          .update(l)
          .set({ endedAt: at, endedByName: by, epoch: sql`${l.epoch} + 1` })
          .where(still),
      ] as const;
    }) as unknown as Parameters<Db["batch"]>[0],
  );
  // Its cell's gateways read the end now (outside a request, the cron's sweep, they end it by their own clock).
  for (const r of rows) noteGatewayWake(r.companyId);
  return rows.length;
}

/** The cron's sweep (and a start's first step): lockdowns whose duration ran out by `now` end by themselves. */
export function endExpiredLockdowns(db: Db, now: number, companyId?: number): Promise<number> {
  return endWhere(db, now, and(lte(l.endsAt, now), companyId === undefined ? undefined : eq(l.companyId, companyId))!, null, null);
}

export type LockdownState = typeof l.$inferSelect;

/** The company's lockdown in force at `now`, or null: one read by primary key (the shell's banner reads it on every page). */
export async function lockdownInForce(db: Db, companyId: number, now: number): Promise<LockdownState | null> {
  const [row] = await db.select().from(l).where(eq(l.companyId, companyId));
  return row && isInForce(row, now) ? row : null;
}

/** The banner's text: who started what, when; null outside a lockdown. */
export async function lockdownBanner(db: Db, companyId: number, now: number) {
  const row = await lockdownInForce(db, companyId, now);
  return row && { mode: row.mode, planName: row.planName, startedBy: row.startedByName, startedAt: row.startedAt!, endsAt: row.endsAt };
}

/** Whether a door is in the scope of the company's lockdown (mode lockdown) in force: remote unlock refuses those. */
export async function doorLockedDown(db: Db, companyId: number, deviceId: number, now: number): Promise<boolean> {
  const row = await lockdownInForce(db, companyId, now);
  if (!row || row.mode !== "lockdown") return false;
  const ids = idList(row.scopeIds);
  if (row.scope === "company") return true;
  if (row.scope === "doors") return ids.includes(deviceId);
  const m = schema.deviceGroupMembers;
  const g = schema.deviceGroups;
  const [hit] = await db
    .select({ id: m.groupId })
    .from(m)
    .innerJoin(g, eq(g.id, m.groupId))
    .where(and(eq(m.deviceId, deviceId), inArray(m.groupId, ids.length ? ids : [0]), isNull(g.deletedAt), ne(g.status, DEACTIVATED)))
    .limit(1);
  return Boolean(hit);
}

export { idList as lockdownIds };

export type LockdownRecord = {
  id: string;
  companyId: string;
  epoch: number;
  active: boolean;
  mode: "lockdown" | "evacuation";
  scope: "company" | "groups" | "doors";
  scopeIds: string[];
  exemptUserIds: string[];
  startedAt: number | null;
  endsAt: number | null;
};

/**
 * A company's lockdown state as doors see it (docs/gateway-api.md, the feed's `lockdown` record; signed for
 * phones to carry, credentials.server.ts): the plan as started, with exempt roles expanded to the users
 * holding them (doors know users, not roles). Who holds them may change while it is in force: each such
 * change raises the epoch (migration 0061), so a board cut off from its gateway takes the newer list a phone
 * brings instead of answering `not_newer`.
 */
export async function lockdownRecord(db: Db, r: typeof l.$inferSelect, code: string): Promise<LockdownRecord> {
  const active = r.startedAt != null && r.endedAt == null;
  const roles = idList(r.exemptRoleIds);
  const u = schema.users;
  const roleHolders =
    active && roles.length
      ? await db
          .select({ id: u.id })
          .from(u)
          .where(and(eq(u.companyId, r.companyId), isNull(u.deletedAt), inArray(u.roleId, roles)))
      : [];
  return {
    id: code,
    companyId: code,
    epoch: r.epoch,
    active,
    mode: r.mode,
    scope: r.scope,
    scopeIds: idList(r.scopeIds).map(String),
    exemptUserIds: [...new Set([...idList(r.exemptUserIds), ...roleHolders.map((x) => x.id)])].map(String),
    startedAt: r.startedAt,
    endsAt: r.endsAt,
  };
}
