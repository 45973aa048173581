/**
 * Issue 10, the rest: only a super admin changes a super admin, lists of more than 99 ids,
 * audit entries a client may write, and bad input that must be a clear 4xx storing nothing.
 */
import { and, count, eq, inArray } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { chunkedInserts } from "../../db/seed/batch";
import { sha256Hex } from "../../app/utils/tokens.server";
import { consoleWorker, api, db, DEMO, deviceGroupBody, fromEveryLog, login, madridZoneId, ORIGIN, resetThrottles, schema, pageCookie } from "./helpers";

const BASE = "/api/admin";
/** Browsers always send Host; Remix compares it with Origin. */
const HOST = new URL(ORIGIN).host;
const ACME = 3;
const ACME_ADMIN = 3; // super admin
const AUDITOR = 5;
const STAFF = 6;

let acme: string;
let auditor: string;

beforeAll(async () => {
  [acme, auditor] = await Promise.all([login("acme"), login("auditor")]);
});

const pagePost = (cookie: string, path: string, form: URLSearchParams) =>
  consoleWorker.fetch(ORIGIN + path, { method: "POST", body: form, headers: { Host: HOST, Cookie: cookie, Origin: ORIGIN }, redirect: "manual" });

const formOf = (p: Record<string, unknown>, userId: number) => ({
  userId,
  firstName: p.firstName,
  lastName: p.lastName,
  displayName: p.displayName,
  emailId: p.email,
  countryCode: p.countryCode,
  phoneNumer: p.cell,
  isSuperAdmin: p.isSuperAdmin ? "1" : "0",
  isSentinel: p.isSentinel ? "1" : "0",
  isInactive: p.isInactive ? "1" : "0",
});

describe("only a super admin may change a super admin", () => {
  let manager: string;

  beforeAll(async () => {
    // The auditor becomes a user manager (the company admin role) without being a super admin.
    await db().update(schema.users).set({ roleId: 3, isSuperAdmin: false, isSentinel: true }).where(eq(schema.users.id, AUDITOR));
    await resetThrottles();
    manager = await login("auditor");
    await db().update(schema.companySettings).set({ passwordResetSecurity: "admin" }).where(eq(schema.companySettings.companyId, ACME));
  });

  it("refuses e-mail re-pointing, deactivation, flagging, reset links and deletion with 403, changing nothing", async () => {
    const before = await db().query.users.findFirst({ where: eq(schema.users.id, ACME_ADMIN) });
    const details = (await api(manager, "GET", `${BASE}/user/getUserDetails?id=${ACME_ADMIN}`)).body.payload;
    const attempts: [string, string, unknown][] = [
      ["PUT", "/user/modifyUserDetails", { ...formOf(details, ACME_ADMIN), emailId: "attacker@evil.example" }],
      ["PUT", "/user/modifyUserDetails", { ...formOf(details, ACME_ADMIN), isInactive: "1" }],
      ["POST", "/user/flaggedUser", { userId: ACME_ADMIN, is_flagged: "1" }],
      ["POST", "/user/sendResetLink", { userId: ACME_ADMIN }],
      ["DELETE", `/user/deleteUser?id=${ACME_ADMIN}`, undefined],
      ["DELETE", `/user/forgetDevice?id=${ACME_ADMIN}`, undefined],
    ];
    for (const [method, path, body] of attempts) {
      const r = await api(manager, method, BASE + path, body);
      expect(r.status, `${method} ${path} ${JSON.stringify(body)}`).toBe(403);
      // Sending a reset link is itself a Super Admin privilege, whoever it is for.
      expect(r.body.message).toBe(path === "/user/sendResetLink" ? "You do not have permission to do this" : "Only a super admin can change a super admin");
    }
    expect(await db().query.users.findFirst({ where: eq(schema.users.id, ACME_ADMIN) })).toEqual(before);
    const mail = await db().select().from(schema.mailOutbox).where(eq(schema.mailOutbox.subject, "Reset your password"));
    expect(mail).toHaveLength(0);
  });

  it("refuses the same through the console page", async () => {
    const cookie = await pageCookie("auditor");
    const res = await pagePost(cookie, `/modifyUser?id=${ACME_ADMIN}`, new URLSearchParams({ intent: "delete" }));
    expect(res.status).toBe(302);
    expect((await db().query.users.findFirst({ where: eq(schema.users.id, ACME_ADMIN) }))?.deletedAt).toBeNull();
  });

  it("still lets the manager change other users, and a super admin change a super admin", async () => {
    const staff = (await api(manager, "GET", `${BASE}/user/getUserDetails?id=${STAFF}`)).body.payload;
    expect((await api(manager, "PUT", `${BASE}/user/modifyUserDetails`, { ...formOf(staff, STAFF), firstName: "Changed" })).status).toBe(200);
    await db().update(schema.users).set({ isSuperAdmin: true }).where(eq(schema.users.id, STAFF));
    const promoted = (await api(acme, "GET", `${BASE}/user/getUserDetails?id=${STAFF}`)).body.payload;
    expect((await api(acme, "PUT", `${BASE}/user/modifyUserDetails`, { ...formOf(promoted, STAFF), firstName: "ByRoot" })).status).toBe(200);
    expect((await api(manager, "PUT", `${BASE}/user/modifyUserDetails`, { ...formOf(promoted, STAFF), firstName: "Again" })).status).toBe(403);
    await db().update(schema.users).set({ isSuperAdmin: false }).where(eq(schema.users.id, STAFF));
  });
});

describe("lists of more than 99 ids", () => {
  let ids: number[] = [];
  let madrid: number;

  beforeAll(async () => {
    madrid = await madridZoneId();
    const rows = Array.from({ length: 150 }, (_, i) => ({ companyId: ACME, fullName: `Bulk door ${i}`, displayName: `B${i}`, serialNumber: `BULK-${i}` }));
    await db().batch(chunkedInserts(db(), schema.devices, rows) as never);
    ids = (await db().select({ id: schema.devices.id }).from(schema.devices).where(eq(schema.devices.companyId, ACME))).map((r) => r.id);
    expect(ids.length).toBeGreaterThan(150);
  });

  const group = (devices: number[]) => deviceGroupBody(madrid, `Every door ${Math.random()}`, devices, { display_name: "All", is_all_day: "1" });
  const members = async (groupId: number) => (await db().select({ n: count() }).from(schema.deviceGroupMembers).where(eq(schema.deviceGroupMembers.groupId, groupId)))[0].n;

  it("a device group of every device is created and modified through the API", async () => {
    const r = await api(acme, "POST", `${BASE}/deviceGroup/createDeviceGroup`, group(ids));
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const id = r.body.payload.id as number;
    expect(await members(id)).toBe(ids.length);
    const m = await api(acme, "PUT", `${BASE}/deviceGroup/modifyDeviceGroup`, { ...group(ids.slice(0, 120)), id });
    expect(m.status, JSON.stringify(m.body)).toBe(200);
    expect(await members(id)).toBe(120);
  });

  it("a foreign device hidden among 150 of one's own is still a 404 that changes nothing", async () => {
    const before = (await db().select({ n: count() }).from(schema.deviceGroups))[0].n;
    const r = await api(acme, "POST", `${BASE}/deviceGroup/createDeviceGroup`, group([...ids, 13]));
    expect(r.status).toBe(404);
    expect((await db().select({ n: count() }).from(schema.deviceGroups))[0].n).toBe(before);
  });

  it("the /addDeviceGroup page saves a group of every device", async () => {
    const cookie = await pageCookie("acme");
    const form = new URLSearchParams({ displayName: "Page", fullName: "Page group of all", timeZoneId: String(madrid), allDay: "on", "days.monday": "on" });
    for (const id of ids) form.append("deviceIds", String(id));
    const res = await pagePost(cookie, "/addDeviceGroup", form);
    expect(res.status, await res.clone().text()).toBe(302);
    const [g] = await db().select().from(schema.deviceGroups).where(eq(schema.deviceGroups.fullName, "Page group of all"));
    expect(await members(g.id)).toBe(ids.length);
  });

  it("fob programmers: 120 assigned at once", async () => {
    await db().batch(
      chunkedInserts(
        db(),
        schema.fobProgrammers,
        Array.from({ length: 120 }, (_, i) => ({ companyId: ACME, displayName: `Programmer ${i}`, isAssigned: false })),
      ) as never,
    );
    const all = (await db().select({ id: schema.fobProgrammers.id }).from(schema.fobProgrammers).where(eq(schema.fobProgrammers.companyId, ACME))).map((r) => r.id);
    const r = await api(acme, "PUT", `${BASE}/settings/modifyFobProgrammers`, { fob_programmers: all });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const assigned = await db()
      .select({ n: count() })
      .from(schema.fobProgrammers)
      .where(and(eq(schema.fobProgrammers.companyId, ACME), eq(schema.fobProgrammers.isAssigned, true)));
    expect(assigned[0].n).toBe(all.length);
    const half = all.slice(0, 105);
    expect((await api(acme, "PUT", `${BASE}/settings/modifyFobProgrammers`, { fob_programmers: half })).status).toBe(200);
    const rows = await db()
      .select()
      .from(schema.fobProgrammers)
      .where(inArray(schema.fobProgrammers.id, all.slice(100, 110)));
    expect(rows.map((p) => p.isAssigned)).toEqual([true, true, true, true, true, false, false, false, false, false]);
  });
});

describe("audit entries a client may write", () => {
  const LOG = "/api/user/createActivityLog";
  const entries = async (name: string) =>
    fromEveryLog((log) =>
      log
        .select({
          by: schema.activityLogs.createdByUserId,
          target: schema.activityLogs.targetUserId,
          company: schema.activityLogs.companyId,
          op: schema.activityLogs.operationType,
          summary: schema.activityLogs.summary,
        })
        .from(schema.activityLogs)
        .innerJoin(schema.activityTypes, eq(schema.activityTypes.id, schema.activityLogs.activityTypeId))
        .where(eq(schema.activityTypes.name, name)),
    );

  it("refuses the server's own activities (403), even to an admin, and stores nothing", async () => {
    for (const name of ["User Created", "Removed User", "Access Granted", "Firmware Activated", "Password Changed", "User Logs In"]) {
      const before = (await entries(name)).length;
      for (const token of [auditor, acme]) {
        const r = await api(token, "POST", LOG, { operation_type: "Admin", summary: "forged", activity_description: name, device_id: 1 });
        expect(r.status, name).toBe(403);
      }
      expect((await entries(name)).length, name).toBe(before);
    }
  });

  it("records the caller's own sign-out, bound to the caller whatever the body says", async () => {
    const r = await api(auditor, "POST", LOG, { operation_type: "Device", summary: "idle", activity_description: "User Logs Out" });
    expect(r.status).toBe(200);
    expect((await entries("User Logs Out")).at(-1)).toMatchObject({ by: AUDITOR, target: AUDITOR, company: ACME, op: "Admin" });
  });

  it("app unlocks need an e-key to the door; sentinel reports need a sentinel", async () => {
    // A session of a user who is not (or no longer) a sentinel.
    const plain = await login("auditor");
    await db().update(schema.users).set({ isSentinel: false }).where(eq(schema.users.id, AUDITOR));
    expect((await api(plain, "POST", LOG, { activity_description: "Unlocked With App", device_id: 2 })).status).toBe(403);
    expect((await api(plain, "POST", LOG, { activity_description: "Unlocked With App" })).status).toBe(400);
    expect((await api(plain, "POST", LOG, { activity_description: "Sentinel Unlock", device_id: 2 })).status).toBe(403);
    expect((await api(plain, "POST", LOG, { activity_description: "Unlocked With App", device_id: 13 })).status).toBe(404);
    const key = await api(acme, "POST", `${BASE}/user/assignKeyToUser`, { userId: AUDITOR, eKey: 2, type: "device", accessType: "full_access" });
    expect(key.status, JSON.stringify(key.body)).toBe(200);
    expect((await api(plain, "POST", LOG, { activity_description: "Unlocked With App", device_id: 2 })).status).toBe(200);
    expect((await api(acme, "POST", LOG, { activity_description: "Sentinel Unlock", device_id: 2 })).status).toBe(200);
    await db().update(schema.users).set({ isSentinel: true }).where(eq(schema.users.id, AUDITOR));
  });

  it("the anonymous call records the sign-out of a session that ended, proven by its token, once, in the server's words; rate-limited", async () => {
    const WITHOUT = "/api/user/createActivityLogWithoutLogin";
    const ip = { "CF-Connecting-IP": "203.0.113.200" };
    const token = await login("acme");
    const body = { activity_description: "User Logs Out", userName: DEMO.acme.userName, companyId: "ACME", uid: token, summary: "I chose this", operation_type: "Device" };
    expect((await api(null, "POST", WITHOUT, { ...body, activity_description: "User Created" }, ip)).status).toBe(403);
    const before = (await entries("User Logs Out")).length;
    // The session is live: it has not ended, so nothing proves a sign-out.
    expect((await api(null, "POST", WITHOUT, body, ip)).status).toBe(400);
    // A user id is no proof (the old shape), nor is a made-up token.
    expect((await api(null, "POST", WITHOUT, { ...body, uid: String(ACME_ADMIN) }, ip)).status).toBe(400);
    // The session ends without a sign-out (the tab was closed, the purge took it): one entry, once, in the server's words.
    await db()
      .delete(schema.sessions)
      .where(eq(schema.sessions.id, await sha256Hex(token)));
    expect((await api(null, "POST", WITHOUT, { ...body, userName: "staff@acme.example" }, ip)).status).toBe(400);
    const ok = await api(null, "POST", WITHOUT, body, ip);
    expect(ok.body.message, JSON.stringify(ok.body)).toBe("Activity recorded");
    expect((await api(null, "POST", WITHOUT, body, ip)).status).toBe(400);
    const logged = await entries("User Logs Out");
    expect(logged.length).toBe(before + 1);
    expect(logged.filter((e) => e.summary === "Admin, Alice's session ended" && e.op === "Admin" && e.by === ACME_ADMIN)).toHaveLength(1);
    expect(logged.some((e) => e.summary === "I chose this")).toBe(false);
    // A session ended by the user's own logout has its entry already: no second one.
    const second = await login("acme");
    expect((await api(second, "POST", "/api/admin/user/logout")).status).toBe(200);
    expect((await api(null, "POST", WITHOUT, { ...body, uid: second }, ip)).status).toBe(400);
    expect((await entries("User Logs Out")).length).toBe(before + 2);
    // A flood from one client is refused.
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await api(null, "POST", WITHOUT, { ...body, uid: `x${i}` }, ip)).status);
    expect(statuses).toContain(429);
    acme = await login("acme");
  });
});

describe("bad input is a clear 4xx that stores nothing", () => {
  it("getallota with page 1e300, -1 or 'x' is a 400", async () => {
    const root = await login("root");
    for (const page of [1e300, "1e300", -1, 0, 1.5, "x"]) {
      const r = await api(root, "POST", `${BASE}/ota/getallota`, { company_id: "", page });
      expect(r.status, String(page)).toBe(400);
    }
    expect((await api(root, "POST", `${BASE}/ota/getallota`, { company_id: "", page: 1 })).status).toBe(200);
  });

  it("names: a 3 MiB name is refused before parsing, a long one and control or direction characters with 400", async () => {
    const users = async () => (await db().select({ n: count() }).from(schema.users))[0].n;
    const before = await users();
    const base = { firstName: "Nora", lastName: "Nieto", displayName: "Nieto, Nora", emailId: "nora.limits@acme.example", countryCode: "34", phoneNumer: "612345678" };
    const huge = await api(acme, "POST", `${BASE}/user/addUser`, { ...base, firstName: "N".repeat(3 * 1024 * 1024) });
    expect(huge.status).toBe(413);
    for (const [field, value] of [
      ["firstName", "N".repeat(101)],
      ["displayName", "Evil\u202Egnp.exe"],
      ["lastName", "Nie\u0000to"],
      ["displayName", "Line\nbreak"],
      ["firstName", "Zero\u200Bwidth"],
      ["lastName", "Isolate\u2067x"],
    ] as const) {
      const r = await api(acme, "POST", `${BASE}/user/addUser`, { ...base, [field]: value });
      expect(r.status, JSON.stringify(value).slice(0, 40)).toBe(400);
      expect(r.body.errors[field]).toBeDefined();
    }
    expect(await users()).toBe(before);
    const zone = await madridZoneId();
    const group = await api(acme, "POST", `${BASE}/deviceGroup/createDeviceGroup`, deviceGroupBody(zone, "G".repeat(101), [1], { display_name: "Ok" }));
    expect(group.status).toBe(400);
    const rtlGroup = await api(acme, "POST", `${BASE}/deviceGroup/createDeviceGroup`, deviceGroupBody(zone, "Ok", [1], { display_name: "x\u202Ey" }));
    expect(rtlGroup.status).toBe(400);
    // Accented and non-Latin names are fine.
    const ok = await api(acme, "POST", `${BASE}/user/addUser`, { ...base, firstName: "José", lastName: "Müller-Ñúñez", displayName: "مريم 李" });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
  });

  it("fob numbers have a length limit and a character set", async () => {
    const keys = async () => (await db().select({ n: count() }).from(schema.ekeyAssignments))[0].n;
    const before = await keys();
    for (const fob of ["F".repeat(33), "F".repeat(1024 * 512), "12\u0000", "a\u202Eb", "<script>"]) {
      const r = await api(acme, "POST", `${BASE}/user/assignKeyToUser`, { userId: STAFF, eKey: 3, type: "device", accessType: "full_access", FOBDeviceId: fob });
      expect(r.status, fob.slice(0, 20)).toBe(400);
    }
    expect(await keys()).toBe(before);
    const ok = await api(acme, "POST", `${BASE}/user/assignKeyToUser`, { userId: STAFF, eKey: 3, type: "device", accessType: "full_access", FOBDeviceId: "0012-3456" });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
  });

  it("assignKeyToUser with entryId 'abc' is a 400, not a new key", async () => {
    const keys = async () => (await db().select({ n: count() }).from(schema.ekeyAssignments))[0].n;
    const before = await keys();
    for (const entryId of ["abc", "1e3", "-4", "2.5", {}, true]) {
      const r = await api(acme, "POST", `${BASE}/user/assignKeyToUser`, { userId: STAFF, eKey: 4, type: "device", accessType: "full_access", entryId });
      expect(r.status, JSON.stringify(entryId)).toBe(400);
    }
    for (const eKey of ["abc", "NaN"]) {
      expect((await api(acme, "POST", `${BASE}/user/assignKeyToUser`, { userId: STAFF, eKey, type: "device", accessType: "full_access" })).status).toBe(400);
    }
    expect(await keys()).toBe(before);
  });

  it("a malformed payload on the /modifyUser page is a 400, not a 500", async () => {
    const cookie = await pageCookie("acme");
    for (const payload of ["{not json", "[1,2]", "null", "42"]) {
      const res = await pagePost(cookie, `/modifyUser?id=${STAFF}`, new URLSearchParams({ intent: "assign", payload }));
      expect(res.status, payload).toBe(400);
      await res.body?.cancel();
    }
    const data = await pagePost(cookie, `/modifyUser.data?id=${STAFF}`, new URLSearchParams({ intent: "assign", payload: "{not json" }));
    expect(data.status).toBeLessThan(500);
    await data.body?.cancel();
  });
});

describe("no input produces a 5xx", () => {
  it("every admin API call answers malformed bodies and queries with a 4xx", async () => {
    const { adminEndpoints, ADMIN_BASE, userEndpoints, USER_BASE } = await import("~/api/registry.server");
    const root = await login("root");
    const weird: unknown[] = [
      null,
      [],
      "text",
      42,
      { id: "abc", userId: "abc", page: 1e300, entryId: "abc", company_id: {}, available_devices: "x", fob_programmers: [1e300] },
      { id: -1, userId: 1.5, page: -5, limit: "NaN", sort: { $ne: 1 }, startDate: "2026-13-45", tz: "Mars/Olympus", from: "x", to: "y" },
      { id: "9007199254740993", userId: [], roleId: null, type: 7, zone: "x", scheduleDays: "1234567", status: "9" },
    ];
    const queries = ["?id=abc", "?id=1e300", "?id=-1&userId=x&groupId=%00", "?roleId=&type=%E0%A4%A", "?page=1e300&limit=-1"];
    const failures: string[] = [];
    const tables: [string, typeof adminEndpoints][] = [
      [ADMIN_BASE, adminEndpoints],
      [USER_BASE, userEndpoints],
    ];
    for (const [base, table] of tables) {
      for (const e of table) {
        // Sign-out ends the token; the public sign-in calls are covered by security-auth.test.ts.
        if (e.path === "/user/logout" || e.auth === "public") continue;
        for (const token of [e.path.startsWith("/ota/") ? root : acme]) {
          if (e.method === "GET" || e.method === "DELETE") {
            for (const q of queries) {
              const r = await api(token, e.method, `${base}${e.path}${q}`);
              if (r.status >= 500) failures.push(`${e.method} ${e.path}${q} -> ${r.status} ${JSON.stringify(r.body).slice(0, 120)}`);
            }
          } else {
            for (const body of weird) {
              const r = await api(token, e.method, `${base}${e.path}`, JSON.stringify(body));
              if (r.status >= 500) failures.push(`${e.method} ${e.path} ${JSON.stringify(body).slice(0, 60)} -> ${r.status} ${JSON.stringify(r.body).slice(0, 120)}`);
            }
          }
        }
      }
    }
    expect(failures).toEqual([]);
  }, 180_000);
});
