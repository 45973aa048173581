import { env } from "cloudflare:test";
import { and, eq, inArray, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { userConditions } from "../../app/services/users.server";
import { api, auditsNamed, createDeviceGroup, db, fromEveryLog, login, schema, workerNow } from "./helpers";

const BASE = "/api/admin";
const ACME = 3;
// Demo ids (db/seed/demo.ts): BETA admin 4 and BETA device 13; ACME devices 1–12.
const BETA_USER = 4;
const BETA_DEVICE = 13;

let acme: string;
let beta: string;
let auditor: string;

/** Users created for this file: a distinctive surname so searches see only them. */
const made: { id: number; email: string; phone: string; name: string }[] = [];
let groupId: number;

async function addUser(token: string, i: number, over: Record<string, unknown> = {}) {
  const name = `Quokka ${String(i).padStart(2, "0")}`;
  const body = {
    firstName: "Quokka",
    lastName: `Zeta${String(i).padStart(2, "0")}`,
    displayName: name,
    emailId: `qk${i}.${Math.random().toString(36).slice(2, 7)}@find.example`,
    countryCode: "34",
    phoneNumer: `6997${String(i).padStart(2, "0")}${String(Math.floor(Math.random() * 1e3)).padStart(3, "0")}`,
    isSentinel: "0",
    isSuperAdmin: "0",
    isInstaller: "0",
    isFob: "0",
    isInactive: "0",
    isSOInterrupt: "0",
    sendInvite: "0",
    ...over,
  };
  const r = await api(token, "POST", `${BASE}/user/addUser`, body);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return { id: r.body.payload.id as number, email: body.emailId, phone: body.phoneNumer, name };
}

beforeAll(async () => {
  [acme, beta, auditor] = await Promise.all([login("acme"), login("beta"), login("auditor")]);
  for (let i = 1; i <= 6; i++) made.push(await addUser(acme, i, i === 6 ? { isSuperAdmin: "1" } : {}));
  await addUser(beta, 99);
  groupId = await createDeviceGroup(acme, "Quokka Gate", [2], { display_name: "Qk", start_at: "07:00", end_at: "19:00" });
});

const search = async (token: string, query: string) => (await api(token, "GET", `${BASE}/user/getAllUsers?${query}`)).body.payload as { id: number; dispay_name: string }[];
const names = (rows: { dispay_name: string }[]) => rows.map((r) => r.dispay_name).sort();
const keysOf = (userIds: number[]) =>
  db()
    .select({ userId: schema.ekeyAssignments.userId })
    .from(schema.ekeyAssignments)
    .where(and(inArray(schema.ekeyAssignments.userId, userIds), eq(schema.ekeyAssignments.groupId, groupId)));
const audits = (name: string, userIds: number[]) => auditsNamed(name, inArray(schema.activityLogs.targetUserId, userIds));

describe("user search (getAllUsers)", () => {
  it("matches a prefix of the display, first or last name, case-insensitively, within the caller's company only", async () => {
    expect(names(await search(acme, "q=quok"))).toEqual(made.map((m) => m.name));
    expect(names(await search(acme, "q=ZETA03"))).toEqual(["Quokka 03"]);
    // BETA's Quokka 99 is never visible to ACME, and ACME's never to BETA.
    expect(names(await search(beta, "q=quokka"))).toEqual(["Quokka 99"]);
  });

  it("matches an e-mail prefix and phone digits typed with separators", async () => {
    expect(names(await search(acme, `q=${encodeURIComponent(made[1].email.slice(0, 6).toUpperCase())}`))).toEqual(["Quokka 02"]);
    const p = made[2].phone;
    // Stored as E.164: typed internationally, with separators, with '+' or '00'.
    expect(names(await search(acme, `search=${encodeURIComponent(`+34 ${p.slice(0, 3)} ${p.slice(3, 6)}-${p.slice(6)}`)}`))).toEqual(["Quokka 03"]);
    expect(names(await search(acme, `search=${encodeURIComponent(`0034 ${p}`)}`))).toEqual(["Quokka 03"]);
  });

  it("takes '%' and '_' literally and does not match in the middle of a word", async () => {
    expect(await search(acme, "q=%25")).toEqual([]);
    expect(await search(acme, "q=_uokka")).toEqual([]);
    expect(await search(acme, "q=okka")).toEqual([]);
  });

  it("filters by status, privilege, role and group key, and ignores unknown filter values", async () => {
    expect(names(await search(acme, "q=quokka&flag=superAdmin&status=all"))).toEqual(["Quokka 06"]);
    expect(names(await search(acme, "q=quokka&flag=nonsense")).length).toBe(6);
    expect(await search(acme, "q=quokka&status=inactive")).toEqual([]);
    expect(await search(acme, `q=quokka&groupId=${groupId}`)).toEqual([]);
    expect(await search(acme, "q=quokka&roleId=999999")).toEqual([]);
  });

  it("reads an index range for each searched column, never a scan of the company's users", async () => {
    const u = schema.users;
    const query = db()
      .select({ id: u.id })
      .from(u)
      .where(and(eq(u.companyId, ACME), ...userConditions(ACME, { q: "quo", status: "active" })))
      .toSQL();
    const plan = await env.DB.prepare(`EXPLAIN QUERY PLAN ${query.sql}`)
      .bind(...query.params)
      .all<{ detail: string }>();
    const details = plan.results.map((r) => r.detail).join("\n");
    for (const index of ["users_company_display_lc_idx", "users_company_first_lc_idx", "users_company_last_lc_idx", "users_company_email_uq"]) expect(details).toContain(index);
    expect(details).not.toMatch(/SCAN users/);
  });
});

describe("device group search (getDeviceGroups)", () => {
  it("finds groups by name prefix in the caller's company only", async () => {
    const r = await api(acme, "GET", `${BASE}/deviceGroup/getDeviceGroups?q=quokka%20g`);
    expect(r.body.payload.map((g: { full_name: string }) => g.full_name)).toEqual(["Quokka Gate"]);
    const other = await api(beta, "GET", `${BASE}/deviceGroup/getDeviceGroups?q=quokka`);
    expect(other.body.payload).toEqual([]);
  });
});

describe("POST /user/bulkAssignKey", () => {
  it("gives the group key to each user once, with one result, one audit entry and one feed row per change", async () => {
    const [a, b, c] = made;
    const first = await api(acme, "POST", `${BASE}/user/bulkAssignKey`, { type: "group", eKey: groupId, userIds: [a.id] });
    expect(first.status).toBe(200);
    const feedBefore = (
      await db()
        .select({ n: sql<number>`count(*)` })
        .from(schema.gatewayChanges)
    )[0].n;
    const r = await api(acme, "POST", `${BASE}/user/bulkAssignKey`, { type: "group", eKey: groupId, userIds: [a.id, b.id, BETA_USER, c.id, 987654] });
    expect(r.status).toBe(200);
    expect(r.body.message).toBe("2 of 5 done");
    expect(r.body.payload).toEqual([
      { id: a.id, name: a.name, result: "already", message: "already has this key" },
      { id: b.id, name: b.name, result: "done", message: "key given" },
      { id: BETA_USER, name: null, result: "notFound", message: "not found" },
      { id: c.id, name: c.name, result: "done", message: "key given" },
      { id: 987654, name: null, result: "notFound", message: "not found" },
    ]);
    expect((await keysOf([a.id, b.id, c.id])).map((k) => k.userId).sort()).toEqual([a.id, b.id, c.id].sort());
    expect(await keysOf([BETA_USER])).toEqual([]);
    expect((await audits("eKey Assigned", [b.id, c.id])).length).toBe(2);
    const feedAfter = (
      await db()
        .select({ n: sql<number>`count(*)` })
        .from(schema.gatewayChanges)
    )[0].n;
    expect(feedAfter - feedBefore).toBe(2);
    // The filter sees the new keys.
    expect(names(await search(acme, `groupId=${groupId}`))).toEqual([a.name, b.name, c.name]);
  });

  it("refuses another company's group (404) and a read-only role (403); nothing changes", async () => {
    const betaGroup = (await db().query.deviceGroups.findFirst({ where: eq(schema.deviceGroups.companyId, 4) }))!.id;
    const foreign = await api(acme, "POST", `${BASE}/user/bulkAssignKey`, { type: "group", eKey: betaGroup, userIds: [made[3].id] });
    expect(foreign.status).toBe(404);
    const readOnly = await api(auditor, "POST", `${BASE}/user/bulkAssignKey`, { type: "group", eKey: groupId, userIds: [made[3].id] });
    expect(readOnly.status).toBe(403);
    const foreignDevice = await api(acme, "POST", `${BASE}/user/bulkAssignKey`, { type: "device", eKey: BETA_DEVICE, userIds: [made[3].id] });
    expect(foreignDevice.status).toBe(404);
    expect(await db().select().from(schema.ekeyAssignments).where(eq(schema.ekeyAssignments.userId, made[3].id))).toEqual([]);
  });

  it("refuses an empty or oversized selection with 400", async () => {
    const empty = await api(acme, "POST", `${BASE}/user/bulkAssignKey`, { type: "group", eKey: groupId, userIds: [] });
    expect(empty.status).toBe(400);
    expect(empty.body.message).toContain("Select at least one row");
    const big = await api(acme, "POST", `${BASE}/user/bulkAssignKey`, { type: "group", eKey: groupId, userIds: Array.from({ length: 201 }, (_, i) => i + 1) });
    expect(big.status).toBe(400);
    expect(big.body.message).toContain("Select at most 200 rows at a time");
  });

  it("is one batch: when one row's write fails, no user gets the key and no audit entry is written", async () => {
    const [, , , d, e] = made;
    await env.DB.prepare(`CREATE TRIGGER test_refuse_key BEFORE INSERT ON ekey_assignments WHEN new.user_id = ${e.id} BEGIN SELECT RAISE(ABORT, 'refused by test'); END`).run();
    try {
      const r = await api(acme, "POST", `${BASE}/user/bulkAssignKey`, { type: "group", eKey: groupId, userIds: [d.id, e.id] });
      expect(r.status).toBe(500);
    } finally {
      await env.DB.prepare("DROP TRIGGER test_refuse_key").run();
    }
    expect(await keysOf([d.id, e.id])).toEqual([]);
    expect(await audits("eKey Assigned", [d.id, e.id])).toEqual([]);
  });

  it("gives many keys past D1's parameter limit in one call", async () => {
    const many = [];
    for (let i = 10; i < 40; i++) many.push((await addUser(acme, i)).id);
    const r = await api(acme, "POST", `${BASE}/user/bulkAssignKey`, { type: "device", eKey: 3, userIds: many });
    expect(r.status).toBe(200);
    expect(r.body.message).toBe("30 of 30 done");
    const keys = await db()
      .select()
      .from(schema.ekeyAssignments)
      .where(and(inArray(schema.ekeyAssignments.userId, many), eq(schema.ekeyAssignments.deviceId, 3)));
    expect(keys.length).toBe(30);
    expect(keys.every((k) => k.accessType === "full_access" && !k.isGroup)).toBe(true);
  });
});

describe("POST /user/bulkSetInactive", () => {
  it("deactivates many (a super admin only by a super admin, never oneself), audits each and feeds each to the gateways", async () => {
    const [a, b] = made;
    const superAdmin = made[5];
    const me = (await db().query.users.findFirst({ where: eq(schema.users.email, "admin@acme.example") }))!;
    const before = (
      await db()
        .select({ n: sql<number>`count(*)` })
        .from(schema.gatewayChanges)
        .where(eq(schema.gatewayChanges.entity, "user"))
    )[0].n;
    const r = await api(acme, "POST", `${BASE}/user/bulkSetInactive`, { userIds: [a.id, b.id, BETA_USER, me.id], isInactive: "1" });
    expect(r.status).toBe(200);
    const byId = Object.fromEntries(r.body.payload.map((x: { id: number; result: string }) => [x.id, x.result]));
    expect(byId).toEqual({ [a.id]: "done", [b.id]: "done", [BETA_USER]: "notFound", [me.id]: "refused" });
    const rows = await db()
      .select({ id: schema.users.id, isInactive: schema.users.isInactive })
      .from(schema.users)
      .where(inArray(schema.users.id, [a.id, b.id, BETA_USER, me.id]));
    expect(Object.fromEntries(rows.map((x) => [x.id, x.isInactive]))).toEqual({ [a.id]: true, [b.id]: true, [BETA_USER]: false, [me.id]: false });
    expect((await audits("User Modified", [a.id, b.id])).length).toBe(2);
    const after = (
      await db()
        .select({ n: sql<number>`count(*)` })
        .from(schema.gatewayChanges)
        .where(eq(schema.gatewayChanges.entity, "user"))
    )[0].n;
    expect(after - before).toBe(2);
    expect(names(await search(acme, "q=quokka&status=inactive"))).toEqual([a.name, b.name]);

    const again = await api(acme, "POST", `${BASE}/user/bulkSetInactive`, { ids: [a.id], isInactive: true });
    expect(again.body.payload[0]).toMatchObject({ result: "already", message: "already inactive" });
    const back = await api(acme, "POST", `${BASE}/user/bulkSetInactive`, { userIds: [a.id], isInactive: "0" });
    expect(back.body.payload[0]).toMatchObject({ result: "done", message: "reactivated" });
    // ACME's admin is a super admin, so may deactivate another super admin.
    const sa = await api(acme, "POST", `${BASE}/user/bulkSetInactive`, { userIds: [superAdmin.id] });
    expect(sa.body.payload[0].result).toBe(me.isSuperAdmin ? "done" : "refused");
  });

  it("refuses a read-only role with 403", async () => {
    const r = await api(auditor, "POST", `${BASE}/user/bulkSetInactive`, { userIds: [made[2].id] });
    expect(r.status).toBe(403);
    expect((await db().query.users.findFirst({ where: eq(schema.users.id, made[2].id) }))!.isInactive).toBe(false);
  });
});

describe("POST /user/bulkResendInviteMail", () => {
  it("queues one invite per pending user and says which were already set up", async () => {
    const me = (await db().query.users.findFirst({ where: eq(schema.users.email, "admin@acme.example") }))!;
    const at = workerNow();
    const r = await api(acme, "POST", `${BASE}/user/bulkResendInviteMail`, { userIds: [made[2].id, me.id, BETA_USER] });
    expect(r.status).toBe(200);
    expect(r.body.payload.map((x: { result: string }) => x.result)).toEqual(["done", "notPending", "notFound"]);
    const mail = await db().select().from(schema.mailOutbox).where(eq(schema.mailOutbox.toAddress, made[2].email));
    expect(mail.length).toBe(1);
    expect(mail[0].createdAt).toBeGreaterThanOrEqual(at - 60_000);
    expect((await audits("Invite Resent", [made[2].id])).length).toBe(1);
  });
});

describe("POST /deviceGroup/addDevicesToGroup", () => {
  it("adds the company's devices, leaves members and refuses foreign ids per row", async () => {
    const r = await api(acme, "POST", `${BASE}/deviceGroup/addDevicesToGroup`, { groupId, deviceIds: [2, 4, 5, BETA_DEVICE] });
    expect(r.status).toBe(200);
    expect(r.body.payload.map((x: { result: string }) => x.result)).toEqual(["already", "done", "done", "notFound"]);
    const members = await db().select({ id: schema.deviceGroupMembers.deviceId }).from(schema.deviceGroupMembers).where(eq(schema.deviceGroupMembers.groupId, groupId));
    expect(members.map((m) => m.id).sort((x, y) => x - y)).toEqual([2, 4, 5]);
    const logged = await fromEveryLog((log) =>
      log
        .select({ id: schema.activityLogs.targetDeviceId })
        .from(schema.activityLogs)
        .where(and(eq(schema.activityLogs.targetDeviceGroupId, groupId), inArray(schema.activityLogs.targetDeviceId, [4, 5]))),
    );
    expect(logged.length).toBe(2);
  });

  it("refuses another company's group with 404", async () => {
    const betaGroup = (await db().query.deviceGroups.findFirst({ where: eq(schema.deviceGroups.companyId, 4) }))!.id;
    const r = await api(acme, "POST", `${BASE}/deviceGroup/addDevicesToGroup`, { groupId: betaGroup, deviceIds: [6] });
    expect(r.status).toBe(404);
    expect(
      await db()
        .select()
        .from(schema.deviceGroupMembers)
        .where(and(eq(schema.deviceGroupMembers.groupId, betaGroup), eq(schema.deviceGroupMembers.deviceId, 6))),
    ).toEqual([]);
  });
});
