import { env } from "cloudflare:test";
import { eq, max } from "drizzle-orm";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { api, auditsNamed, consoleWorker, db, login, ORIGIN, resetThrottles, schema } from "./helpers";

// The company's firmware policy where an update is started (decision 0116). Demo ids (db/seed/demo.ts):
// ACME is company 3 (admin user 3), staff user 6, devices 1–12 on firmware "1.0"; BETA device 13.
const ACME = 3;
const STAFF = 6;
const ADMIN = 3;
const DOOR = 1;
const BETA_DEVICE = 13;
const GATEWAY_SECRET = String((env as unknown as { GATEWAY_SECRET: string }).GATEWAY_SECRET);
const settings = schema.companySettings;
const devices = schema.devices;
const users = schema.users;
let releaseId: number;
let admin: string;
let phone: string;

const setPolicy = (allowedFirmware: "All Users" | "Installer Only", isForceFirmwareUpdate = false) =>
  db().update(settings).set({ allowedFirmware, isForceFirmwareUpdate }).where(eq(settings.companyId, ACME));
const setInstaller = (id: number, isInstaller: boolean) => db().update(users).set({ isInstaller }).where(eq(users.id, id));
const startOnPhone = (deviceId: unknown = DOOR) => api(phone, "POST", "/api/mobile/firmware/start", { deviceId });
const startInConsole = (token: string, deviceId: unknown = DOOR) => api(token, "POST", "/api/admin/device/startFirmwareUpdate", { deviceId });
const started = async (id = DOOR) => (await db().select({ r: devices.firmwareStartReleaseId }).from(devices).where(eq(devices.id, id)))[0].r;
const feedHead = async () =>
  String(
    (
      await db()
        .select({ seq: max(schema.gatewayChanges.seq) })
        .from(schema.gatewayChanges)
    )[0].seq ?? 0,
  );
async function feedSince(cursor: string) {
  const res = await consoleWorker.fetch(`${ORIGIN}/api/gateway/changes?cursor=${cursor}`, { headers: { Authorization: `Bearer ${GATEWAY_SECRET}` } });
  expect(res.status).toBe(200);
  return ((await res.json()) as { changes: { type: string; id: string; data?: Record<string, unknown> }[] }).changes;
}

beforeAll(async () => {
  const [door] = await db().select().from(devices).where(eq(devices.id, DOOR));
  const [release] = await db()
    .insert(schema.firmwareReleases)
    .values({ companyId: 1, deviceTypeId: door.deviceTypeId, version: "9.9", r2Key: "firmware/x.zip", fileName: "x.zip", size: 10, sha256: "0".repeat(64), isActive: true })
    .returning();
  releaseId = release.id;
  // The staff user signs in on a phone with the admin's password (a user with no console rights).
  const [a] = await db().select().from(users).where(eq(users.id, ADMIN));
  await db().update(users).set({ passwordHash: a.passwordHash, email: "staff.fw@acme.example" }).where(eq(users.id, STAFF));
  await resetThrottles();
  const r = await api(null, "POST", "/api/mobile/login", {
    companyId: "ACME",
    userName: "staff.fw@acme.example",
    password: "Acme#Demo2026",
    installationId: "inst-fw-0001",
    appVersion: "1.4.0",
    language: "en",
  });
  expect(r.status).toBe(200);
  phone = r.body.token;
  admin = await login("acme");
});

beforeEach(async () => {
  await db().update(devices).set({ firmwareStartReleaseId: null });
  await setInstaller(STAFF, false);
  await setInstaller(ADMIN, false);
});

describe("starting a firmware update from the phone", () => {
  it("Installer Only: a user who is not an installer is refused and nothing reaches the door; an installer starts it", async () => {
    await setPolicy("Installer Only");
    const head = await feedHead();
    const refused = await startOnPhone();
    expect([refused.status, refused.body.message, refused.body.errorCode]).toEqual([403, "Only installers may update firmware in this company", "firmware-installer-only"]);
    expect(await started()).toBeNull();
    expect((await feedSince(head)).filter((c) => c.type === "device")).toEqual([]);

    await setInstaller(STAFF, true);
    const ok = await startOnPhone();
    expect([ok.status, ok.body.message, ok.body.payload]).toEqual([200, "Firmware update started", { releaseId, version: "9.9" }]);
    expect(await started()).toBe(releaseId);
    const door = (await feedSince(head)).find((c) => c.type === "device" && c.id === String(DOOR));
    expect(door?.data?.firmwareStart).toBe(String(releaseId));
    const entries = await auditsNamed("Firmware Update Started");
    expect(entries).toEqual([expect.objectContaining({ op: "App", by: STAFF, deviceId: DOOR, summary: "Firmware 9.9 update started for Main Entrance" })]);
  });

  it("All Users: any user of the company starts it", async () => {
    await setPolicy("All Users");
    const ok = await startOnPhone();
    expect(ok.status).toBe(200);
    expect(await started()).toBe(releaseId);
  });

  it("forced: nothing to start (the gateways offer it on their own), and the company record says so", async () => {
    const head = await feedHead();
    await setPolicy("All Users", true);
    const company = (await feedSince(head)).find((c) => c.type === "company" && c.id === "ACME");
    expect(company?.data).toMatchObject({ forceFirmware: true });
    const r = await startOnPhone();
    expect([r.status, r.body.message, r.body.errorCode]).toEqual([409, "This company's boards update their firmware on their own", "firmware-forced"]);
    await setPolicy("All Users", false);
  });

  it("a door of another company is 404, bad input 400, a door already on the release 409", async () => {
    await setPolicy("All Users");
    expect((await startOnPhone(BETA_DEVICE)).status).toBe(404);
    expect(await started(BETA_DEVICE)).toBeNull();
    const bad = await startOnPhone("abc");
    expect([bad.status, bad.body.message]).toEqual([400, "deviceId: deviceId is required"]);
    await db().update(devices).set({ firmwareVersion: "9.9" }).where(eq(devices.id, 2));
    const current = await startOnPhone(2);
    expect([current.status, current.body.errorCode]).toEqual([409, "firmware-up-to-date"]);
    expect((await api(null, "POST", "/api/mobile/firmware/start", { deviceId: DOOR })).status).toBe(401);
  });
});

describe("the phone's list of its doors' firmware", () => {
  const list = () => api(phone, "GET", "/api/mobile/firmware");

  it("lists the doors of the caller's keys that have a release they do not run, with the policy and the start", async () => {
    await setPolicy("All Users");
    await db().delete(schema.ekeyAssignments).where(eq(schema.ekeyAssignments.userId, STAFF));
    // Door 1 runs 1.0 (release 9.9 waiting), door 2 already runs 9.9, door 4 is of a type without a release; door 3 is not the caller's.
    for (const deviceId of [1, 2, 4])
      await db()
        .insert(schema.ekeyAssignments)
        .values({ companyId: ACME, userId: STAFF, isGroup: false, deviceId, accessType: "full_access", scheduleDays: "1111111", isNeverEnd: true, isAllDay: true });
    await db().update(devices).set({ firmwareVersion: "9.9" }).where(eq(devices.id, 2));
    const door = { id: DOOR, name: "ME1", installed: "1.0", release: { id: releaseId, version: "9.9" }, started: false };
    expect((await list()).body.payload).toEqual({ allowed: "All Users", forced: false, mayStart: true, doors: [door] });

    await setPolicy("Installer Only");
    expect((await list()).body.payload).toMatchObject({ allowed: "Installer Only", mayStart: false, doors: [door] });
    await setInstaller(STAFF, true);
    expect((await startOnPhone()).status).toBe(200);
    expect((await list()).body.payload).toMatchObject({ mayStart: true, doors: [{ ...door, started: true }] });

    await setPolicy("All Users", true);
    expect((await list()).body.payload).toMatchObject({ forced: true, mayStart: false });
    await setPolicy("All Users", false);
    // A console token is not a phone's.
    expect((await api(admin, "GET", "/api/mobile/firmware")).status).toBe(401);
  });
});

describe("starting a firmware update from the console's API", () => {
  it("needs devices/modify, and the installer privilege when the company allows installers only", async () => {
    await setPolicy("Installer Only");
    const auditor = await login("auditor");
    expect((await startInConsole(auditor)).status).toBe(403);
    const refused = await startInConsole(admin);
    expect([refused.status, refused.body.errorCode]).toEqual([403, "firmware-installer-only"]);
    expect(await started()).toBeNull();
    await setInstaller(ADMIN, true);
    const ok = await startInConsole(admin);
    expect(ok.status).toBe(200);
    expect(await started()).toBe(releaseId);
  });

  it("is in the OpenAPI document", async () => {
    const doc = (await api(null, "GET", "/api/openapi.json")).body;
    expect(doc.paths["/api/admin/device/startFirmwareUpdate"].post).toBeDefined();
    expect(doc.paths["/api/mobile/firmware/start"].post).toBeDefined();
    expect(doc.paths["/api/mobile/firmware"].get).toBeDefined();
  });
});
