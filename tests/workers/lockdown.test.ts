/**
 * Lockdown and evacuation (issue 31, decision 0083): plans through the admin API, a start and an end with
 * their audit entries and their feed record, the console's door decision refusing a non-exempt user and
 * admitting an exempt one, remote unlock refused in scope, and the automatic end by the cron's sweep at an
 * injected instant. Demo data: BETA (company 4) doors 13–16; admin@beta.example is user 4 (full keys on them).
 */
import { env } from "cloudflare:test";
import { and, eq, gt } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { endExpiredLockdowns } from "../../app/services/lockdown.server";
import { api, auditsNamed, consoleWorker, db, login, ORIGIN, resetThrottles, schema, workerNow } from "./helpers";

const A = "/api/admin";
const BETA = 4;
const BETA_ADMIN = 4;
let beta: string;
let acmeAuditor: string;
let other: number;

const check = (deviceId: number, userId: number, at = workerNow()) =>
  api(beta, "POST", `${A}/device/checkAccess`, { checks: [{ deviceId, credential: { type: "user", id: String(userId) }, at }] }).then((r) => r.body.payload[0]);

async function feedLockdown(after: number) {
  const res = await consoleWorker.fetch(`${ORIGIN}/api/gateway/changes?cursor=${after}`, { headers: { Authorization: `Bearer ${env.GATEWAY_SECRET}` } });
  const body = (await res.json()) as { changes: { type: string; id: string; data?: any }[] };
  return body.changes.filter((c) => c.type === "lockdown").at(-1);
}
const head = async () => (await db().select({ seq: schema.gatewayChanges.seq }).from(schema.gatewayChanges).orderBy(schema.gatewayChanges.seq)).at(-1)?.seq ?? 0;

beforeAll(async () => {
  beta = await login("beta");
  acmeAuditor = await login("auditor");
  const [u] = await db()
    .select({ id: schema.users.id })
    .from(schema.users)
    .where(and(eq(schema.users.companyId, BETA), gt(schema.users.id, BETA_ADMIN)))
    .limit(1);
  other = u.id;
});

describe("lockdown plans", () => {
  it("refuses a caller without the company settings module before reading the body", async () => {
    const r = await api(acmeAuditor, "POST", `${A}/lockdown/plans`, "not json");
    expect(r.status).toBe(403);
  });

  it("refuses a plan naming another company's door, and a groups plan without groups", async () => {
    const r = await api(beta, "POST", `${A}/lockdown/plans`, { name: "Bad", mode: "lockdown", scope: "doors", scope_ids: [1] });
    expect(r.status).toBe(400);
    expect(r.body.payload?.fieldErrors ?? r.body).toBeTruthy();
    const r2 = await api(beta, "POST", `${A}/lockdown/plans`, { name: "Empty", mode: "lockdown", scope: "groups", scope_ids: [] });
    expect(r2.status).toBe(400);
  });

  it("starts a lockdown on one door: audit, feed record, door decisions, remote unlock refused; then ends it", async () => {
    const add = await api(beta, "POST", `${A}/lockdown/plans`, { name: "Door 14 lockdown", mode: "lockdown", scope: "doors", scope_ids: [14], exempt_user_ids: [BETA_ADMIN] });
    expect(add.status).toBe(200);
    const planId = add.body.payload.id;
    expect((await check(14, other)).code).not.toBe("lockdown");

    const before = await head();
    const start = await api(beta, "POST", `${A}/lockdown/plans/${planId}/start`);
    expect(start.status).toBe(200);
    expect((await api(beta, "POST", `${A}/lockdown/plans/${planId}/start`)).status).toBe(409);
    expect((await auditsNamed("Lockdown Started")).length).toBeGreaterThan(0);

    const rec = await feedLockdown(before);
    expect(rec?.data).toMatchObject({
      id: "BETA",
      active: true,
      mode: "lockdown",
      scope: "doors",
      scopeIds: ["14"],
      exemptUserIds: [String(BETA_ADMIN)],
      epoch: start.body.payload.epoch,
    });

    expect(await check(14, other)).toMatchObject({ allowed: false, code: "lockdown" });
    expect(await check(14, BETA_ADMIN)).toMatchObject({ allowed: true });
    // Out of scope: door 13 keeps its usual answer.
    expect((await check(13, other)).code).not.toBe("lockdown");

    const unlock = await api(beta, "POST", `${A}/device/remoteUnlock`, { deviceId: 14 });
    expect(unlock.status).toBe(409);
    expect(unlock.body.message).toBe("Remote unlock is refused: this door is in lockdown");

    expect((await api(beta, "GET", `${A}/lockdown/state`)).body.payload).toMatchObject({ mode: "lockdown", plan_name: "Door 14 lockdown" });
    const mid = await head();
    expect((await api(beta, "POST", `${A}/lockdown/end`)).status).toBe(200);
    expect((await api(beta, "POST", `${A}/lockdown/end`)).status).toBe(409);
    expect((await feedLockdown(mid))?.data).toMatchObject({ active: false, epoch: start.body.payload.epoch + 1 });
    expect((await check(14, other)).code).not.toBe("lockdown");
    expect((await api(beta, "GET", `${A}/lockdown/state`)).body.payload).toBeNull();
    expect((await auditsNamed("Lockdown Ended")).length).toBeGreaterThan(0);
  });

  it("an evacuation opens the doors in scope for any credential", async () => {
    const add = await api(beta, "POST", `${A}/lockdown/plans`, { name: "Evacuate", mode: "evacuation", scope: "company" });
    const start = await api(beta, "POST", `${A}/lockdown/plans/${add.body.payload.id}/start`);
    expect(start.status).toBe(200);
    const r = await api(beta, "POST", `${A}/device/checkAccess`, { checks: [{ deviceId: 15, credential: { type: "fob", id: "no-such-fob" }, at: workerNow() }] });
    expect(r.body.payload[0]).toMatchObject({ allowed: true, code: null });
    expect((await api(beta, "POST", `${A}/lockdown/end`)).status).toBe(200);
  });

  it("ends by itself once its duration has run out, stamped at that instant, by the cron's sweep", async () => {
    const add = await api(beta, "POST", `${A}/lockdown/plans`, { name: "Ten minutes", mode: "lockdown", scope: "company", duration_minutes: 10 });
    const start = await api(beta, "POST", `${A}/lockdown/plans/${add.body.payload.id}/start`);
    expect(start.status).toBe(200);
    const endsAt = start.body.payload.ends_at as number;
    expect(await endExpiredLockdowns(db() as never, endsAt - 1)).toBe(0);
    expect(await check(14, other, endsAt - 1)).toMatchObject({ code: "lockdown" });
    // After its end the decision no longer applies it, even before the sweep has run.
    expect((await check(14, other, endsAt)).code).not.toBe("lockdown");
    expect(await endExpiredLockdowns(db() as never, endsAt + 60_000)).toBe(1);
    const [row] = await db().select().from(schema.companyLockdowns).where(eq(schema.companyLockdowns.companyId, BETA));
    expect(row).toMatchObject({ endedAt: endsAt, endedByName: null });
    const ended = await auditsNamed("Lockdown Ended");
    expect(ended.some((a) => a.summary.includes("ended automatically"))).toBe(true);
  });

  it("a panic button at one of a plan's panic doors starts it once, even when its event is sent again; a late one is only logged", async () => {
    // ACME's door 1 is not BETA's: refused by name.
    const bad = await api(beta, "POST", `${A}/lockdown/plans`, { name: "Bad panic", mode: "lockdown", scope: "company", panic_door_ids: [1] });
    expect(bad.status).toBe(400);
    const add = await api(beta, "POST", `${A}/lockdown/plans`, { name: "Panic at 15", mode: "lockdown", scope: "company", panic_door_ids: [15], exempt_user_ids: [BETA_ADMIN] });
    expect(add.status).toBe(200);
    expect((await api(beta, "GET", `${A}/lockdown/plans/${add.body.payload.id}`)).body.payload.panic_door_ids).toEqual([15]);
    const now = workerNow();
    const press = async (id: string, at = now) => {
      const res = await consoleWorker.fetch(`${ORIGIN}/api/gateway/events`, {
        method: "POST",
        headers: { Authorization: `Bearer ${env.GATEWAY_SECRET}`, "Content-Type": "application/json" },
        body: JSON.stringify({ v: 1, events: [{ id, deviceId: "15", type: "panic.pressed", at, data: { input: 1 } }] }),
      });
      expect(res.status).toBe(200);
    };
    const state = async () => (await api(beta, "GET", `${A}/lockdown/state`)).body.payload;

    await press("panic-test/late", now - 11 * 60_000);
    expect(await state()).toBeNull();
    await press("panic-test/1");
    expect(await state()).toMatchObject({ mode: "lockdown", plan_name: "Panic at 15", started_by: expect.stringMatching(/^Panic button at /) });
    expect((await check(13, other)).code).toBe("lockdown");
    expect((await check(13, BETA_ADMIN)).allowed).toBe(true);

    // Ended by a person; the same event sent again (a gateway replaying its queue) starts nothing.
    expect((await api(beta, "POST", `${A}/lockdown/end`)).status).toBe(200);
    await press("panic-test/1");
    expect(await state()).toBeNull();
    const pressed = await auditsNamed("Panic Button Pressed", eq(schema.activityLogs.companyId, BETA));
    expect(pressed).toHaveLength(2);
    expect((await auditsNamed("Lockdown Started")).filter((a) => a.summary.includes("Panic at 15"))).toHaveLength(1);
  });
});

/**
 * From the phone app (issue 31: "the phone app, for users a plan allows"): a plan's phone triggers name users
 * and roles; such a user sees the plan on GET /api/mobile/lockdown, starts it (confirmed) and ends it, logged
 * as App entries naming them; a user the plan does not name is refused, and nothing starts or ends. The same
 * phones then read the signed state of a plan that exempts a role (decision 0117): who holds the role is who
 * is exempt, and a change of that while the lockdown is in force reaches them under a newer epoch.
 */
describe("lockdown from the phone", () => {
  const M = "/api/mobile";
  type PhoneUser = { id: number; name: string; token: string };
  let guard: PhoneUser;
  let roleGuard: PhoneUser;
  let visitor: PhoneUser;
  let guardRole: number;
  const lockdownState = async () => (await api(beta, "GET", `${A}/lockdown/state`)).body.payload;
  /** The epoch of the signed lockdown state GET /keys hands the phone (typ kac-lockdown+jws). */
  const signedEpoch = async (token: string) => {
    const jws = (await api(token, "GET", `${M}/keys`)).body.payload.lockdownState as string;
    return JSON.parse(atob(jws.split(".")[1].replace(/-/g, "+").replace(/_/g, "/"))) as { epoch: number; active: boolean; exemptUserIds: string[] };
  };

  beforeAll(async () => {
    // Three of BETA's users (no console role) get the admin's password and an address, and sign in on phones of their own.
    const [admin] = await db().select().from(schema.users).where(eq(schema.users.id, BETA_ADMIN));
    const staff = await db()
      .select({ id: schema.users.id, name: schema.users.displayName })
      .from(schema.users)
      .where(and(eq(schema.users.companyId, BETA), gt(schema.users.id, BETA_ADMIN)))
      .orderBy(schema.users.id)
      .limit(3);
    const [role] = await db().insert(schema.roles).values({ companyId: BETA, title: "Phone guards" }).returning({ id: schema.roles.id });
    guardRole = role.id;
    const signIn = async (u: { id: number; name: string }, i: number): Promise<PhoneUser> => {
      const email = `phone.lockdown.${i}@beta.example`;
      await db()
        .update(schema.users)
        .set({ passwordHash: admin.passwordHash, email, isInactive: false, accountSetupPending: false, passwordChangedAt: workerNow(), roleId: i === 1 ? guardRole : null })
        .where(eq(schema.users.id, u.id));
      await resetThrottles();
      const r = await api(null, "POST", `${M}/login`, {
        companyId: "BETA",
        userName: email,
        password: "Beta#Demo2026",
        installationId: `inst-lockdown-${i}`,
        appVersion: "1.4.0",
        language: "en",
      });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return { ...u, token: r.body.token };
    };
    [guard, roleGuard, visitor] = await Promise.all(staff.map((u, i) => signIn(u, i)));
  });

  it("a permitted user starts the plan from the phone, a user it does not name is refused, and the permitted one ends it", async () => {
    expect(await lockdownState()).toBeNull();
    // Phone triggers are checked like the plan's other ids: another company's user is refused by name.
    const bad = await api(beta, "POST", `${A}/lockdown/plans`, { name: "Bad phone", mode: "lockdown", scope: "company", phone_trigger_user_ids: [1] });
    expect(bad.status).toBe(400);
    const add = await api(beta, "POST", `${A}/lockdown/plans`, {
      name: "Phone drill",
      mode: "lockdown",
      scope: "doors",
      scope_ids: [16],
      phone_trigger_user_ids: [guard.id],
      phone_trigger_role_ids: [guardRole],
    });
    expect(add.status).toBe(200);
    const planId = add.body.payload.id as number;
    expect((await api(beta, "GET", `${A}/lockdown/plans/${planId}`)).body.payload).toMatchObject({ phone_trigger_user_ids: [guard.id], phone_trigger_role_ids: [guardRole] });

    // Each phone sees the plans it may start: by user, by role, none.
    const plansOf = async (u: PhoneUser) => (await api(u.token, "GET", `${M}/lockdown`)).body.payload;
    expect((await plansOf(guard)).plans.map((p: { id: number }) => p.id)).toContain(planId);
    expect((await plansOf(roleGuard)).plans.map((p: { id: number }) => p.id)).toContain(planId);
    expect(await plansOf(visitor)).toEqual({ plans: [], inForce: null });
    const epochBefore = (await signedEpoch(guard.token)).epoch;

    // Refused: a user the plan does not name (nothing starts, nothing logged), a start without the confirmation, a console token.
    const startedBefore = (await auditsNamed("Lockdown Started")).length;
    const refused = await api(visitor.token, "POST", `${M}/lockdown/start`, { planId, confirm: true });
    expect([refused.status, refused.body.errorCode, refused.body.message]).toEqual([403, "lockdown-not-allowed", "This plan does not allow you to start it from the phone"]);
    expect((await api(guard.token, "POST", `${M}/lockdown/start`, { planId })).status).toBe(400);
    expect((await api(beta, "POST", `${M}/lockdown/start`, { planId, confirm: true })).status).toBe(401);
    expect(await lockdownState()).toBeNull();
    expect(await auditsNamed("Lockdown Started")).toHaveLength(startedBefore);

    const start = await api(guard.token, "POST", `${M}/lockdown/start`, { planId, confirm: true });
    expect(start.status, JSON.stringify(start.body)).toBe(200);
    expect(start.body).toMatchObject({ message: "Lockdown started", payload: { epoch: expect.any(Number), endsAt: null } });
    expect(await lockdownState()).toMatchObject({ mode: "lockdown", plan_name: "Phone drill", started_by: guard.name });
    expect((await check(16, other)).code).toBe("lockdown");
    const [started] = await auditsNamed("Lockdown Started", eq(schema.activityLogs.createdByUserId, guard.id));
    expect(started).toMatchObject({ op: "App", by: guard.id, summary: `Lockdown Phone drill started by ${guard.name} from the phone` });
    // The phone's next keys carry the newer signed state, so it tells boards cut off from their gateway.
    expect(await signedEpoch(guard.token)).toMatchObject({ epoch: start.body.payload.epoch, active: true });
    expect(start.body.payload.epoch).toBeGreaterThan(epochBefore);

    // Every phone sees it in force; who may end it: the plan's phone triggers.
    expect((await plansOf(visitor)).inForce).toMatchObject({ planId, planName: "Phone drill", startedBy: guard.name, mayEnd: false });
    expect((await plansOf(roleGuard)).inForce).toMatchObject({ mayEnd: true });
    const again = await api(roleGuard.token, "POST", `${M}/lockdown/start`, { planId, confirm: true });
    expect([again.status, again.body.errorCode]).toEqual([409, "lockdown-in-force"]);
    const endRefused = await api(visitor.token, "POST", `${M}/lockdown/end`);
    expect([endRefused.status, endRefused.body.errorCode]).toEqual([403, "lockdown-end-not-allowed"]);
    expect(await lockdownState()).not.toBeNull();

    const end = await api(guard.token, "POST", `${M}/lockdown/end`);
    expect([end.status, end.body.message]).toEqual([200, "Lockdown ended"]);
    expect(await lockdownState()).toBeNull();
    const [ended] = await auditsNamed("Lockdown Ended", eq(schema.activityLogs.createdByUserId, guard.id));
    expect(ended).toMatchObject({ op: "App", summary: `Lockdown Phone drill ended by ${guard.name} from the phone` });
    expect(await signedEpoch(guard.token)).toMatchObject({ epoch: start.body.payload.epoch + 1, active: false });
    const none = await api(guard.token, "POST", `${M}/lockdown/end`);
    expect([none.status, none.body.errorCode]).toEqual([409, "lockdown-none"]);
  });

  it("a plan exempting a role admits its holder and refuses others; the holder whose role is taken away is refused from then on, under a newer epoch for the feed and the phones", async () => {
    const DOOR = 16;
    const [role] = await db().insert(schema.roles).values({ companyId: BETA, title: "Lockdown wardens" }).returning({ id: schema.roles.id });
    // Both hold a full key to the door: only the lockdown tells them apart.
    await db()
      .insert(schema.ekeyAssignments)
      .values([guard, visitor].map((u) => ({ companyId: BETA, userId: u.id, deviceId: DOOR, accessType: "full_access" as const, isNeverEnd: true, isAllDay: true })));
    expect((await api(beta, "POST", `${A}/user/assignRoleToUser`, { user_id: visitor.id, role_id: role.id })).status).toBe(200);
    const plan = { name: "Wardens only", mode: "lockdown", scope: "doors", scope_ids: [DOOR], exempt_role_ids: [role.id] };
    const add = await api(beta, "POST", `${A}/lockdown/plans`, plan);
    expect(add.status, JSON.stringify(add.body)).toBe(200);
    const planId = add.body.payload.id as number;
    expect((await api(beta, "GET", `${A}/lockdown/plans/${planId}`)).body.payload).toMatchObject({ exempt_user_ids: [], exempt_role_ids: [role.id] });

    const before = await head();
    const start = await api(beta, "POST", `${A}/lockdown/plans/${planId}/start`);
    expect(start.status).toBe(200);
    const epoch = start.body.payload.epoch as number;
    expect((await feedLockdown(before))?.data).toMatchObject({ epoch, active: true, exemptUserIds: [String(visitor.id)] });
    expect(await signedEpoch(guard.token)).toMatchObject({ epoch, active: true, exemptUserIds: [String(visitor.id)] });
    expect(await check(DOOR, visitor.id)).toMatchObject({ allowed: true, code: null });
    expect(await check(DOOR, guard.id)).toMatchObject({ allowed: false, code: "lockdown" });

    // The plan edited while in force: the lockdown keeps the plan as it was started, so doors see no change and the epoch stays.
    const edited = await head();
    expect((await api(beta, "PUT", `${A}/lockdown/plans/${planId}`, { ...plan, exempt_user_ids: [guard.id], exempt_role_ids: [] })).status).toBe(200);
    expect(await check(DOOR, guard.id)).toMatchObject({ code: "lockdown" });
    expect(await check(DOOR, visitor.id)).toMatchObject({ allowed: true });
    expect(await feedLockdown(edited)).toBeUndefined();
    expect((await signedEpoch(guard.token)).epoch).toBe(epoch);

    // The holder's role taken away mid-lockdown: refused from now on.
    const removed = await head();
    expect((await api(beta, "DELETE", `${A}/user/removeRoleFromUser?id=${visitor.id}`)).status).toBe(200);
    expect(await check(DOOR, visitor.id)).toMatchObject({ allowed: false, code: "lockdown" });
    const rec = await feedLockdown(removed);
    expect(rec?.data).toMatchObject({ active: true, exemptUserIds: [] });
    // A board cut off from its gateway takes a state a phone presents only when its epoch is higher than the
    // one it keeps (gateway/src/access/lockdown-state.js); the same epoch would be answered `not_newer`.
    expect(rec?.data.epoch).toBeGreaterThan(epoch);
    expect(await signedEpoch(guard.token)).toMatchObject({ epoch: rec?.data.epoch, active: true, exemptUserIds: [] });
    // A role change that touches no exempt role changes nothing doors see.
    const unrelated = await head();
    expect((await api(beta, "DELETE", `${A}/user/removeRoleFromUser?id=${roleGuard.id}`)).status).toBe(200);
    expect(await feedLockdown(unrelated)).toBeUndefined();
    expect((await signedEpoch(guard.token)).epoch).toBe(rec?.data.epoch);

    // Given back: exempt again, under a newer epoch still; the end raises it once more.
    expect((await api(beta, "POST", `${A}/user/assignRoleToUser`, { user_id: visitor.id, role_id: role.id })).status).toBe(200);
    expect(await check(DOOR, visitor.id)).toMatchObject({ allowed: true });
    const regained = await signedEpoch(guard.token);
    expect(regained).toMatchObject({ epoch: rec?.data.epoch + 1, exemptUserIds: [String(visitor.id)] });
    expect((await api(beta, "POST", `${A}/lockdown/end`)).status).toBe(200);
    expect(await signedEpoch(guard.token)).toMatchObject({ epoch: regained.epoch + 1, active: false });
    expect(await lockdownState()).toBeNull();
  });
});
