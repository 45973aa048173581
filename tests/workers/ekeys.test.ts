// @clock: decides at the Worker's instant; scripts/test.sh runs this file again half an hour before the DST switch.
import { desc, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { api, auditsNamed, db, login, schema } from "./helpers";

const BASE = "/api/admin";
let acme: string;
let auditor: string;

// Demo ids (db/seed/demo.ts): ACME staff user 6, ACME devices 1–12 and groups 1–4 (4 deactivated);
// BETA admin 4, BETA device 13, BETA group 5.
const USER = 6;
const BETA_USER = 4;
const BETA_DEVICE = 13;

beforeAll(async () => {
  [acme, auditor] = await Promise.all([login("acme"), login("auditor")]);
});

const zoneId = async (name: string) => (await db().query.timeZones.findFirst({ where: eq(schema.timeZones.name, name) }))!.id;

const custom = async (over: Record<string, unknown> = {}) => ({
  userId: USER,
  eKey: 2,
  type: "device",
  status: "1",
  FOBDeviceId: null,
  accessType: "custom_access",
  startDate: "2026-03-01",
  endDate: "2026-06-30",
  isNeverEnd: "0",
  isAllDay: "0",
  startTime: "08:00",
  endTime: "17:30",
  scheduleDays: [true, true, true, true, true, false, false],
  zone: await zoneId("Europe/Madrid"),
  entryId: null,
  ...over,
});

const lastChange = async () => (await db().select().from(schema.gatewayChanges).orderBy(desc(schema.gatewayChanges.seq)).limit(1))[0];

describe("POST /user/assignKeyToUser", () => {
  it("assigns a custom device key, mirrors it to the gateways and audits 'eKey Assigned'", async () => {
    const r = await api(acme, "POST", `${BASE}/user/assignKeyToUser`, await custom());
    expect(r.status).toBe(200);
    expect(r.body.message).toBe("eKeys/Groups Assigned successfully");
    const id = r.body.payload.entryId;
    const row = await db().query.ekeyAssignments.findFirst({ where: eq(schema.ekeyAssignments.id, id) });
    expect(row).toMatchObject({
      userId: USER,
      deviceId: 2,
      accessType: "custom_access",
      status: "1",
      scheduleDays: "1111100",
      startTime: "08:00",
      endTime: "17:30",
      endDate: "2026-06-30",
    });
    expect(await lastChange()).toMatchObject({ entity: "ekey", entityId: id, op: "upsert" });
    const audit = await auditsNamed("eKey Assigned", eq(schema.activityLogs.targetUserId, USER));
    expect(audit.length).toBeGreaterThan(0);
  });

  it("full access clears the schedule; one-time sends status 2", async () => {
    const full = await api(acme, "POST", `${BASE}/user/assignKeyToUser`, await custom({ accessType: "full_access", eKey: 3 }));
    expect(full.status).toBe(200);
    const row = await db().query.ekeyAssignments.findFirst({ where: eq(schema.ekeyAssignments.id, full.body.payload.entryId) });
    expect(row).toMatchObject({ accessType: "full_access", startDate: null, endDate: null, startTime: null, timeZoneId: null });
    const once = await api(acme, "POST", `${BASE}/user/assignKeyToUser`, await custom({ accessType: "one_time_access", eKey: 4 }));
    const oneTime = await db().query.ekeyAssignments.findFirst({ where: eq(schema.ekeyAssignments.id, once.body.payload.entryId) });
    expect(oneTime?.status).toBe("2");
  });

  it("a group forces custom access with the group's schedule, never ending", async () => {
    const r = await api(acme, "POST", `${BASE}/user/assignKeyToUser`, await custom({ type: "group", eKey: 1, accessType: "full_access", isNeverEnd: "0" }));
    expect(r.status).toBe(200);
    const row = await db().query.ekeyAssignments.findFirst({ where: eq(schema.ekeyAssignments.id, r.body.payload.entryId) });
    expect(row).toMatchObject({
      isGroup: true,
      groupId: 1,
      accessType: "custom_access",
      isNeverEnd: true,
      endDate: null,
      scheduleDays: "1111100",
      startTime: "08:00",
      endTime: "18:00",
    });
  });

  it("modifies an existing entry ('eKeys Modified successfully')", async () => {
    const created = await api(acme, "POST", `${BASE}/user/assignKeyToUser`, await custom({ eKey: 5 }));
    const entryId = created.body.payload.entryId;
    const r = await api(acme, "POST", `${BASE}/user/assignKeyToUser`, await custom({ eKey: 5, entryId, isAllDay: "1", isNeverEnd: "1" }));
    expect(r.status).toBe(200);
    expect(r.body.message).toBe("eKeys Modified successfully");
    const row = await db().query.ekeyAssignments.findFirst({ where: eq(schema.ekeyAssignments.id, entryId) });
    expect(row).toMatchObject({ isAllDay: true, startTime: null, isNeverEnd: true, endDate: null });
  });

  it.each([
    [{ eKey: null }, "Please select an eKey or group"],
    [{ startDate: "" }, "Start date is required or invalid"],
    [{ startDate: "2026-02-30" }, "Start date is required or invalid"],
    [{ endDate: null }, "End date is required or invalid"],
    [{ endDate: "2026-01-01" }, "End date is required or invalid"],
    [{ startTime: "" }, "Start and End time are required"],
    [{ endTime: "08:00" }, "Start and End time are required"],
    [{ zone: null }, "Time zone is required"],
    [{ scheduleDays: "0000000" }, "Please select at least one day"],
  ])("rejects %o with '%s'", async (over, message) => {
    const r = await api(acme, "POST", `${BASE}/user/assignKeyToUser`, await custom(over));
    expect(r.status).toBe(400);
    expect(r.body.message).toBe(message);
  });

  it("answers 404 for another company's device, group or user, and stores nothing", async () => {
    const before = (await db().select().from(schema.ekeyAssignments)).length;
    expect((await api(acme, "POST", `${BASE}/user/assignKeyToUser`, await custom({ eKey: BETA_DEVICE }))).status).toBe(404);
    expect((await api(acme, "POST", `${BASE}/user/assignKeyToUser`, await custom({ type: "group", eKey: 5 }))).status).toBe(404);
    expect((await api(acme, "POST", `${BASE}/user/assignKeyToUser`, await custom({ userId: BETA_USER }))).status).toBe(404);
    const betaEntry = (await db().query.ekeyAssignments.findFirst({ where: eq(schema.ekeyAssignments.userId, BETA_USER) }))!;
    expect((await api(acme, "POST", `${BASE}/user/assignKeyToUser`, await custom({ entryId: betaEntry.id }))).status).toBe(404);
    expect((await db().select().from(schema.ekeyAssignments)).length).toBe(before);
  });

  it("refuses a caller without the users module", async () => {
    expect((await api(auditor, "POST", `${BASE}/user/assignKeyToUser`, await custom())).status).toBe(403);
  });
});

describe("GET /user/getAssignedEkeys and /user/getEkeys", () => {
  it("lists entries with the spec's fields, and the devices reached through groups", async () => {
    const r = await api(acme, "GET", `${BASE}/user/getAssignedEkeys?userId=${USER}`);
    expect(r.status).toBe(200);
    const entry = r.body.payload.find((e: any) => e.is_group);
    expect(entry).toMatchObject({ is_group: true, deviceGroup: { id: expect.any(Number), full_name: expect.any(String) }, access_type: "custom_access", is_never_end: true });
    for (const field of [
      "entry_id",
      "ekeyDetails",
      "ekeyStatus",
      "start_date",
      "end_date",
      "start_time",
      "end_time",
      "schedule_days",
      "is_all_day",
      "time_zone_id",
      "group_id",
      "group_name",
      "sch_monday",
      "start_at",
      "end_at",
    ])
      expect(entry).toHaveProperty(field);
    expect(Array.isArray(r.body.groupKeys)).toBe(true);
    expect(r.body.groupKeys.length).toBeGreaterThan(0);
  });

  it("offers the company's devices and active groups only", async () => {
    const devices = await api(acme, "GET", `${BASE}/user/getEkeys?type=device&userId=${USER}`);
    expect(devices.status).toBe(200);
    expect(devices.body.payload.map((d: any) => d.id)).not.toContain(BETA_DEVICE);
    const groups = await api(acme, "GET", `${BASE}/user/getEkeys?type=group&userId=${USER}`);
    expect(groups.body.payload.map((g: any) => g.id).sort()).toEqual([1, 2, 3]);
    expect(groups.body.payload[0]).toHaveProperty("sch_monday");
  });

  it("answers 404 for another company's user and 403 without the module", async () => {
    expect((await api(acme, "GET", `${BASE}/user/getAssignedEkeys?userId=${BETA_USER}`)).status).toBe(404);
    expect((await api(acme, "GET", `${BASE}/user/getEkeys?type=device&userId=${BETA_USER}`)).status).toBe(404);
    expect((await api(auditor, "GET", `${BASE}/user/getAssignedEkeys?userId=${USER}`)).status).toBe(403);
  });
});

describe("DELETE /user/deleteAssignedEkey and /user/deleteAssignedGroup", () => {
  it("removes a device entry ('ekey removed successfully') and mirrors the delete", async () => {
    const entryId = (await api(acme, "POST", `${BASE}/user/assignKeyToUser`, await custom({ eKey: 7 }))).body.payload.entryId;
    const r = await api(acme, "DELETE", `${BASE}/user/deleteAssignedEkey?entryId=${entryId}`);
    expect(r.status).toBe(200);
    expect(r.body.message).toBe("ekey removed successfully");
    expect(await db().query.ekeyAssignments.findFirst({ where: eq(schema.ekeyAssignments.id, entryId) })).toBeUndefined();
    expect(await lastChange()).toMatchObject({ entity: "ekey", entityId: entryId, op: "delete" });
  });

  it("removes a group entry, and refuses a device entry on the group call", async () => {
    const group = (await api(acme, "POST", `${BASE}/user/assignKeyToUser`, await custom({ type: "group", eKey: 2 }))).body.payload.entryId;
    const device = (await api(acme, "POST", `${BASE}/user/assignKeyToUser`, await custom({ eKey: 8 }))).body.payload.entryId;
    expect((await api(acme, "DELETE", `${BASE}/user/deleteAssignedGroup?entryId=${device}`)).status).toBe(422);
    expect((await api(acme, "DELETE", `${BASE}/user/deleteAssignedGroup?entryId=${group}`)).status).toBe(200);
  });

  it("answers 422 for unknown or malformed ids, 404 for another company's entry, 403 without the delete right", async () => {
    for (const q of ["entryId=999999", "entryId=abc", ""]) {
      const r = await api(acme, "DELETE", `${BASE}/user/deleteAssignedEkey?${q}`);
      expect(r.status).toBe(422);
      expect(r.body.message).toBe("eKey not found");
    }
    const betaEntry = (await db().query.ekeyAssignments.findFirst({ where: eq(schema.ekeyAssignments.userId, BETA_USER) }))!;
    expect((await api(acme, "DELETE", `${BASE}/user/deleteAssignedEkey?entryId=${betaEntry.id}`)).status).toBe(404);
    expect(await db().query.ekeyAssignments.findFirst({ where: eq(schema.ekeyAssignments.id, betaEntry.id) })).toBeDefined();
    expect((await api(auditor, "DELETE", `${BASE}/user/deleteAssignedEkey?entryId=${betaEntry.id}`)).status).toBe(403);
  });
});
