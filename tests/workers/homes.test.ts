// @clock: the dashboard counts today's denials in the company's zone; scripts/test.sh runs this file again half an hour before the DST switch.
/**
 * Homes per role (decision 0056): a reseller's boards in stock never count as its offline or low-battery
 * devices (nor its customers'), a new company's first-run checklist ticks from its own data and is gone
 * once done, and each home reads D1 in a fixed number of round trips.
 */
import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import coreModule from "~core/core.wasm";
import { createCore } from "~core";
import { seedGateway } from "../../db/seed/gateway";
import { dashboardNumbers } from "../../app/services/dashboard.server";
import { listDevices } from "../../app/services/devices.server";
import { COMPANY_ADMIN_MODULES } from "../../app/services/companies.server";
import { resellerHomeStatements } from "../../app/services/home-reseller.server";
import { authFromToken, type Auth } from "../../app/utils/auth-guards.server";
import { batchOf } from "../../app/utils/batch-of.server";
import type { DeviceFilters } from "../../app/schemas/device-filters";
import { api, companyLog, consoleWorker, db, DEMO, login, ORIGIN, pageCookie, schema, workerNow } from "./helpers";

const SECRET = String(env.GATEWAY_SECRET);
const HOST = new URL(ORIGIN).host;
const core = createCore(coreModule);
const ACME = 3;
let n = 0;

async function addDevice(companyId: number, name: string, extra: Partial<typeof schema.devices.$inferInsert> = {}) {
  const [row] = await db()
    .insert(schema.devices)
    .values({ companyId, fullName: name, displayName: name, serialNumber: `HOME-${name}-${++n}`, status: "configured", ...extra })
    .returning({ id: schema.devices.id });
  return row.id;
}

/** A board a gateway reported and then lost: offline since a minute ago. */
async function offline(deviceId: number, companyId: number) {
  const [gw] = await db().select({ id: schema.gateways.id }).from(schema.gateways).limit(1);
  const now = workerNow();
  await db().update(schema.gateways).set({ lastSeenAt: now });
  await db()
    .insert(schema.devicePresence)
    .values({ deviceId, gatewayId: gw.id, companyId, online: false, since: now - 60_000, updatedAt: now });
}

async function gatewayEvents(events: unknown[]) {
  const res = await consoleWorker.fetch(`${ORIGIN}/api/gateway/events`, {
    method: "POST",
    headers: { Authorization: `Bearer ${SECRET}`, "Content-Type": "application/json" },
    body: JSON.stringify({ v: 1, gatewayId: "gw-homes", events }),
  });
  expect(res.status).toBe(200);
  expect(((await res.json()) as { rejected?: unknown[] }).rejected ?? []).toEqual([]);
}

/** The console's sign-in form, for any account: the page session cookie. */
async function cookieFor(companyId: string, userName: string, password: string) {
  const res = await consoleWorker.fetch(`${ORIGIN}/login`, {
    method: "POST",
    body: new URLSearchParams({ companyId, userName, password }),
    headers: { Host: HOST, Origin: ORIGIN },
    redirect: "manual",
  });
  expect(res.status).toBe(302);
  return res.headers
    .getSetCookie()
    .find((c) => c.startsWith("__session="))!
    .split(";")[0];
}

async function home(cookie: string) {
  const res = await consoleWorker.fetch(`${ORIGIN}/`, { headers: { Host: HOST, Cookie: cookie } });
  expect(res.status).toBe(200);
  return { html: await res.text(), d1: Number(res.headers.get("X-D1-Round-Trips")) };
}

beforeAll(async () => {
  await seedGateway(db(), { GATEWAY_SECRET: SECRET });
});

describe("a reseller's stock on its dashboard", () => {
  let reseller: Auth;
  let rsl1: number;
  const numbers = async () => (await dashboardNumbers(db(), companyLog(rsl1), reseller, core, workerNow())).devices!;
  const listed = async (filters: DeviceFilters) =>
    (await listDevices(db(), reseller, { offset: 0, pageSize: 100, sort: { key: "fullName", desc: false }, filters }, workerNow(), core)).total;
  const childHealth = async () => {
    const b = batchOf(db());
    const read = resellerHomeStatements(b, db(), reseller, workerNow());
    return read(await b.run());
  };

  beforeAll(async () => {
    reseller = (await authFromToken(db(), env as never, await login("var"), workerNow()))!;
    rsl1 = reseller.company.id;
  });

  it("counts no stock board as offline, never seen or low on battery, and the filtered lists agree", async () => {
    const stockBefore = (await childHealth()).stock!;
    const before = await numbers();
    // The seed's 20 boxed boards are never seen and some have low coin cells: none of them counts.
    expect(stockBefore).toBeGreaterThanOrEqual(20);
    expect(before.neverSeen).toBe(await listed({ online: "never" }));
    const boxed = await addDevice(rsl1, "Boxed", { status: "stock", lowBattery: true });
    await offline(boxed, rsl1);
    expect(await numbers()).toEqual(before);
    expect((await childHealth()).stock).toBe(stockBefore + 1);
    // The same state on a board in service counts.
    const used = await addDevice(rsl1, "In service", { lowBattery: true });
    await offline(used, rsl1);
    const after = await numbers();
    expect(after).toMatchObject({ offline: before.offline + 1, lowBattery: before.lowBattery + 1, neverSeen: before.neverSeen });
    expect(await listed({ online: "0" })).toBe(after.offline);
    expect(await listed({ battery: "low" })).toBe(after.lowBattery);
    expect(await listed({ online: "never" })).toBe(after.neverSeen);
  });

  it("a customer's health counts its boards in service only", async () => {
    const acmeRow = async () => (await childHealth()).children!.rows.find((r) => r.id === ACME)!;
    const before = await acmeRow();
    expect(before).toBeDefined();
    const boxed = await addDevice(ACME, "Acme boxed", { status: "stock", lowBattery: true });
    await offline(boxed, ACME);
    expect(await acmeRow()).toEqual(before);
    const door = await addDevice(ACME, "Acme door", { lowBattery: true });
    await offline(door, ACME);
    expect(await acmeRow()).toMatchObject({ devices: before.devices + 1, offline: before.offline + 1, lowBattery: before.lowBattery + 1 });
  });
});

describe("a new company's first-run checklist", () => {
  let companyId: number;
  let adminToken: string;
  let cookie: string;
  const checklist = async () => {
    const auth = (await authFromToken(db(), env as never, adminToken, workerNow()))!;
    return (await dashboardNumbers(db(), companyLog(companyId), auth, core, workerNow())).checklist;
  };

  beforeAll(async () => {
    // A customer company as provisioning leaves it: its admin role, its super admin, settings without a zone.
    const [company] = await db().insert(schema.companies).values({ code: "HM01", name: "Home Test Clinic", type: "ec", parentId: 2 }).returning({ id: schema.companies.id });
    companyId = company.id;
    await db().insert(schema.companySettings).values({ companyId, defaultTimeZoneId: null });
    const [role] = await db()
      .insert(schema.roles)
      .values({ companyId, title: "Company Admin", permissionAll: true, permissionAdd: true, permissionModify: true, permissionDelete: true, permissionView: true })
      .returning({ id: schema.roles.id });
    await db()
      .insert(schema.roleModules)
      .values(COMPANY_ADMIN_MODULES.map((m) => ({ roleId: role.id, companyId, moduleKey: m })));
    const hash = (await db().query.users.findFirst({ where: eq(schema.users.email, DEMO.var.userName) }))!.passwordHash;
    await db().insert(schema.users).values({
      companyId,
      roleId: role.id,
      firstName: "Grace",
      lastName: "Admin",
      displayName: "Admin, Grace",
      email: "grace@home.example",
      passwordHash: hash,
      passwordChangedAt: workerNow(),
      isSuperAdmin: true,
    });
    const r = await api(null, "POST", "/api/admin/user/login", { companyId: "HM01", userName: "grace@home.example", password: DEMO.var.password });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    adminToken = r.body.token;
    cookie = await cookieFor("HM01", "grace@home.example", DEMO.var.password);
  });

  it("ticks each step from the company's data, in any order, and leaves the home once all are done", async () => {
    expect(await checklist()).toEqual({ zone: false, door: false, people: false, app: false, test: false });
    expect((await home(cookie)).html).toContain('data-testid="first-run-checklist"');

    // Zone: the company's default time zone setting.
    const [madrid] = await db().select({ id: schema.timeZones.id }).from(schema.timeZones).where(eq(schema.timeZones.name, "Europe/Madrid"));
    await db().update(schema.companySettings).set({ defaultTimeZoneId: madrid.id }).where(eq(schema.companySettings.companyId, companyId));
    expect(await checklist()).toMatchObject({ zone: true, door: false });

    // Door: a board still unconfigured is not a door; a configured one is.
    const door = await addDevice(companyId, "Front Door", { status: "unconfigured" });
    expect((await checklist())!.door).toBe(false);
    await db().update(schema.devices).set({ status: "configured" }).where(eq(schema.devices.id, door));
    expect((await checklist())!.door).toBe(true);

    // People: another administrator is not "people"; a door user is.
    const person = { companyId, firstName: "Dan", lastName: "Molina", displayName: "Molina, Dan", accountSetupPending: true };
    await db()
      .insert(schema.users)
      .values({ ...person, email: "second.admin@home.example", isSuperAdmin: true });
    expect((await checklist())!.people).toBe(false);
    const [dan] = await db()
      .insert(schema.users)
      .values({ ...person, email: "dan@home.example" })
      .returning({ id: schema.users.id });
    expect(await checklist()).toMatchObject({ people: true, app: false });

    // The app: a phone bound to someone ticks it; so does an invite mail through the admin API, the first
    // (its live link: the log has only 'User Created') or a resent one ('Invite Resent').
    await db().update(schema.users).set({ boundDeviceId: "phone-1" }).where(eq(schema.users.id, dan.id));
    expect((await checklist())!.app).toBe(true);
    await db().update(schema.users).set({ boundDeviceId: null }).where(eq(schema.users.id, dan.id));
    expect((await checklist())!.app).toBe(false);
    const added = await api(adminToken, "POST", "/api/admin/user/addUser", {
      firstName: "Eva",
      lastName: "Ruiz",
      displayName: "Ruiz, Eva",
      emailId: "eva@home.example",
      countryCode: "034",
      phoneNumer: "612000555",
    });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    expect((await checklist())!.app).toBe(true);
    await db().delete(schema.passwordResetTokens).where(eq(schema.passwordResetTokens.companyId, companyId));
    expect((await checklist())!.app).toBe(false);
    const invite = await api(adminToken, "POST", "/api/admin/user/resendInviteMail", { userId: dan.id });
    expect(invite.status, JSON.stringify(invite.body)).toBe(200);
    expect(await checklist()).toMatchObject({ app: true, test: false });

    // Test a door: a denial is not a test that worked; a granted access is.
    const at = workerNow();
    const fob = { type: "fob", id: "fob-home" };
    await gatewayEvents([
      { id: `${door}/home-denied`, deviceId: String(door), type: "access.denied", at, data: { credential: fob, code: "no_key", reason: "No key for this door" } },
    ]);
    expect((await checklist())!.test).toBe(false);
    await gatewayEvents([{ id: `${door}/home-granted`, deviceId: String(door), type: "access.granted", at: at + 1, data: { credential: fob } }]);
    expect(await checklist()).toEqual({ zone: true, door: true, people: true, app: true, test: true });
    expect((await home(cookie)).html).not.toContain('data-testid="first-run-checklist"');
  });

  it("is not shown to a reseller, to root or to a role that cannot act on every step", async () => {
    for (const who of ["var", "root", "auditor"] as const) {
      const auth = (await authFromToken(db(), env as never, await login(who), workerNow()))!;
      expect((await dashboardNumbers(db(), companyLog(auth.company.id), auth, core, workerNow())).checklist).toBeUndefined();
    }
  });
});

describe("D1 round trips of each home", () => {
  // The session, then one batch with every number (and the checklist); a company with devices also reads
  // its scheduled-open hours, as the devices list does.
  it.each([
    ["acme", 3],
    ["var", 3],
    ["root", 2],
    ["auditor", 3],
  ] as const)("%s: %i", async (who, trips) => {
    const { html, d1 } = await home(await pageCookie(who));
    expect(html).toContain("<h1");
    expect(d1).toBe(trips);
  });
});
