import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { api, companyLog, db, login, schema } from "./helpers";

const BASE = "/api/admin";
const ACME = 3;
const BETA = 4;
// Known entries in July 2020, far from the demo's month of traffic, so each filter's answer is exact.
// Europe/Madrid is UTC+2 then: 21:30Z is 23:30 on July 1, 22:30Z is 00:30 on July 2.
const at = (iso: string) => Date.parse(iso);
const FIXED = [
  { key: "lateJul1", name: "Access Granted", op: "Device", ts: at("2020-07-01T21:30:00Z"), device: 2, creator: 3, target: 3, summary: "late on the first" },
  { key: "earlyJul2", name: "Unlocked With App", op: "App", ts: at("2020-07-01T22:30:00Z"), device: 2, creator: 6, target: 6, summary: "just after midnight" },
  { key: "noonJul2", name: "Sentinel Unlock", op: "Sentinel", ts: at("2020-07-02T10:00:00Z"), device: 1, creator: 3, target: 6, summary: 'He said "hi", then left\nsecond line' },
  { key: "sensor", name: "Sensor 1 Open", op: "Device", ts: at("2020-07-03T08:00:00Z"), device: 1, creator: null, target: null, summary: '=HYPERLINK("http://x")' },
] as const;
const JULY = { filterFromDate: "2020-07-01", filterToDate: "2020-07-03", tz: "Europe/Madrid" };
const ids: Record<string, number> = {};

let acme: string;
let auditor: string;
let root: string;
let beta: string;

beforeAll(async () => {
  [acme, auditor, root, beta] = await Promise.all([login("acme"), login("auditor"), login("root"), login("beta")]);
  const types = await db().select().from(schema.activityTypes);
  const typeId = (name: string) => types.find((t) => t.name === name)!.id;
  for (const f of FIXED) {
    const [row] = await db()
      .insert(schema.activityLogs)
      .values({
        companyId: ACME,
        activityTypeId: typeId(f.name),
        operationType: f.op,
        createdByUserId: f.creator,
        targetUserId: f.target,
        targetDeviceId: f.device,
        summary: f.summary,
        activityTimestamp: f.ts,
      })
      .returning({ id: schema.activityLogs.id });
    ids[f.key] = row.id;
  }
});

const list = (token: string, body: Record<string, unknown>) => api(token, "POST", `${BASE}/user/activityLogs`, body);
const idsOf = (r: { body: { payload: { rows: { id: number }[] } } }) => r.body.payload.rows.map((x) => x.id);

describe("POST /user/activityLogs", () => {
  it("returns the spec's row shape, newest first, 100 per page by default", async () => {
    const r = await list(acme, {});
    expect(r.status).toBe(200);
    const p = r.body.payload;
    expect(p.page).toBe(0);
    expect(p.pageSize).toBe(100);
    expect(p.rows).toHaveLength(100);
    expect(p.total).toBeGreaterThan(320);
    expect(p.tz).toBe("Europe/Madrid");
    const times = p.rows.map((x: { activity_timestamp: number }) => x.activity_timestamp);
    expect(times).toEqual([...times].sort((a, b) => b - a));
    const row = p.rows.find((x: { target_device: unknown }) => x.target_device);
    expect(Object.keys(row)).toEqual(
      expect.arrayContaining([
        "id",
        "activity_timestamp",
        "activity",
        "details_json",
        "target_device",
        "target_device_group",
        "created_by_user",
        "target_user",
        "created_by_user_id",
        "target_user_id",
        "target_device_id",
        "target_device_group_id",
        "operation_type",
        "summary",
        "gps_location",
      ]),
    );
    expect(Object.keys(row.activity)).toEqual(["name", "type", "alert_conditions", "first_section_info", "details_section_info"]);
  });

  it("reads dates as whole days in the caller's time zone", async () => {
    const madrid = await list(acme, { filterFromDate: "2020-07-02", filterToDate: "2020-07-02", tz: "Europe/Madrid" });
    expect(idsOf(madrid)).toEqual([ids.noonJul2, ids.earlyJul2]);
    const utc = await list(acme, { filterFromDate: "2020-07-02", filterToDate: "2020-07-02", tz: "UTC" });
    expect(idsOf(utc)).toEqual([ids.noonJul2]);
    const newYork = await list(acme, { filterFromDate: "2020-07-01", filterToDate: "2020-07-01", tz: "America/New_York" });
    expect(idsOf(newYork)).toEqual([ids.earlyJul2, ids.lateJul1]);
  });

  it("reads times as a daily window, overnight when the end is earlier, with or without dates", async () => {
    const night = await list(acme, { ...JULY, filterFromTime: "23:00", filterToTime: "01:00" });
    expect(idsOf(night)).toEqual([ids.earlyJul2, ids.lateJul1]);
    const morning = await list(acme, { ...JULY, filterFromTime: "10:00:00", filterToTime: "12:30:00" });
    expect(idsOf(morning)).toEqual([ids.sensor, ids.noonJul2]);
    const timesOnly = await list(acme, { filterFromTime: "00:15", filterToTime: "00:45", tz: "Europe/Madrid", id: 6, type: "Triggered By" });
    expect(idsOf(timesOnly)).toContain(ids.earlyJul2);
    expect(idsOf(timesOnly)).not.toContain(ids.noonJul2);
  });

  it("filters by operation type and by id and type", async () => {
    expect(idsOf(await list(acme, { ...JULY, filterOperationType: "Sentinel" }))).toEqual([ids.noonJul2]);
    expect(idsOf(await list(acme, { ...JULY, filterOperationType: "App" }))).toEqual([ids.earlyJul2]);
    expect(idsOf(await list(acme, { ...JULY, filterOperationType: "All" }))).toHaveLength(4);
    expect(idsOf(await list(acme, { ...JULY, id: 3, type: "Triggered By" }))).toEqual([ids.noonJul2, ids.lateJul1]);
    expect(idsOf(await list(acme, { ...JULY, id: 6, type: "User" }))).toEqual([ids.noonJul2, ids.earlyJul2]);
    expect(idsOf(await list(acme, { ...JULY, id: 1, type: "Device" }))).toEqual([ids.sensor, ids.noonJul2]);
    expect(idsOf(await list(acme, { ...JULY, additionalFilter: "Unlocked With App" }))).toEqual([ids.earlyJul2]);
  });

  it("pages from 0 and sorts by a column in either direction", async () => {
    const first = await list(acme, { ...JULY, pageSize: 3, page: 0, sort: "date" });
    const second = await list(acme, { ...JULY, pageSize: 3, page: 1, sort: "date" });
    expect(first.body.payload.total).toBe(4);
    expect(idsOf(first)).toEqual([ids.lateJul1, ids.earlyJul2, ids.noonJul2]);
    expect(idsOf(second)).toEqual([ids.sensor]);
    const byActivity = await list(acme, { ...JULY, sort: "activity" });
    expect(byActivity.body.payload.rows.map((x: { activity: { name: string } }) => x.activity.name)).toEqual([
      "Access Granted",
      "Sensor 1 Open",
      "Sentinel Unlock",
      "Unlocked With App",
    ]);
    const byActivityDesc = await list(acme, { ...JULY, sort: "-activity" });
    expect(idsOf(byActivityDesc)).toEqual([...idsOf(byActivity)].reverse());
    // An unknown sort column falls back to newest first.
    expect(idsOf(await list(acme, { ...JULY, sort: "password" }))).toEqual([ids.sensor, ids.noonJul2, ids.earlyJul2, ids.lateJul1]);
  });

  it("names the device's custom sensor and the people involved", async () => {
    const r = await list(acme, { ...JULY, id: 1, type: "Device" });
    const sensor = r.body.payload.rows.find((x: { id: number }) => x.id === ids.sensor);
    expect(sensor.activity.name).toBe("Sensor 1 Open");
    expect(sensor.activity_name).toBe("Door Open");
    expect(sensor.target_device).toMatchObject({ id: 1, sensor1_open_name: "Door Open" });
    const noon = r.body.payload.rows.find((x: { id: number }) => x.id === ids.noonJul2);
    expect(noon.created_by_user).toEqual({ id: 3, dispay_name: "Admin, Alice" });
    expect(noon.operation_type).toBe("Sentinel");
  });

  it("rejects a reversed range, an id without type and an unknown zone", async () => {
    for (const body of [
      { filterFromDate: "2020-07-05", filterToDate: "2020-07-01" },
      { id: 3 },
      { type: "Device" },
      { filterFromDate: "2020-13-45", filterToDate: "2020-13-46" },
      { ...JULY, tz: "Mars/Olympus" },
      { filterOperationType: "Robot" },
    ]) {
      const r = await list(acme, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
    }
  });
});

describe("tenancy and permissions", () => {
  it("never shows another company's rows", async () => {
    const betaRows = await companyLog(BETA).select({ id: schema.activityLogs.id }).from(schema.activityLogs).where(eq(schema.activityLogs.companyId, BETA));
    const acmeIds = new Set((await list(acme, { pageSize: 100 })).body.payload.rows.map((x: { id: number }) => x.id));
    const betaIds = new Set(idsOf(await list(beta, { pageSize: 100 })));
    expect(betaRows.length).toBeGreaterThan(0);
    expect(betaIds.size).toBeGreaterThan(0);
    for (const { id } of betaRows) expect(acmeIds.has(id)).toBe(false);
    for (const id of betaIds) expect(betaRows.some((b) => b.id === id)).toBe(true);
    // BETA's device 13 is just an unknown id to ACME.
    expect((await list(acme, { id: 13, type: "Device" })).body.payload.total).toBe(0);
    expect((await list(beta, { ...JULY })).body.payload.total).toBe(0);
  });

  it("answers 404 for another company's entry", async () => {
    const betaEntry = (await list(beta, {})).body.payload.rows[0].id;
    expect((await api(acme, "GET", `${BASE}/user/getActivityLogNotes?id=${betaEntry}`)).status).toBe(404);
    const add = await api(acme, "POST", `${BASE}/user/createActivityLogNotes`, { id: betaEntry, note_description: "not mine" });
    expect(add.status).toBe(404);
    expect((await api(beta, "GET", `${BASE}/user/getActivityLogNotes?id=${betaEntry}`)).body.payload).toEqual([]);
  });

  it("refuses a role without the activity module (403) and needs a token (401)", async () => {
    // Beta's role loses the module here (its earlier checks are above); root's reads are its audit trail (decision 0071).
    await db()
      .delete(schema.roleModules)
      .where(and(eq(schema.roleModules.companyId, BETA), eq(schema.roleModules.moduleKey, "activity")));
    for (const [method, path, body] of [
      ["POST", "/user/activityLogs", {}],
      ["POST", "/user/activityReport", {}],
      ["GET", `/user/getActivityLogNotes?id=1`, undefined],
      ["GET", "/user/getActivityOptions", undefined],
      ["POST", "/user/createActivityLogNotes", { id: 1, note_description: "x" }],
    ] as const) {
      expect((await api(beta, method, `${BASE}${path}`, body)).status, path).toBe(403);
      expect((await api(null, method, `${BASE}${path}`, body)).status, path).toBe(401);
    }
    expect((await api(root, "POST", `${BASE}/user/createActivityLogNotes`, { id: 1, note_description: "x" })).status).toBe(403);
  });

  it("lets a read-only role read the log and notes but not add notes", async () => {
    expect((await list(auditor, JULY)).body.payload.total).toBe(4);
    expect((await api(auditor, "GET", `${BASE}/user/getActivityLogNotes?id=${ids.sensor}`)).status).toBe(200);
    const add = await api(auditor, "POST", `${BASE}/user/createActivityLogNotes`, { id: ids.sensor, note_description: "read-only" });
    expect(add.status).toBe(403);
  });
});

describe("POST /user/activityReport", () => {
  it("returns the filtered rows as CSV with readable columns, local times and escaping", async () => {
    const r = await api(acme, "POST", `${BASE}/user/activityReport`, { ...JULY, sort: "date" });
    expect(r.status).toBe(200);
    const csv: string = r.body.payload;
    const lines = csv.split("\r\n");
    expect(lines[0]).toBe("Date,Activity,Trigger,Triggered By,User,Device,Device Group,Summary,GPS Location");
    expect(lines[1]).toMatch(/^07\/01\/2020 23:30:00 CEST,Access Granted,Device,"Admin, Alice","Admin, Alice",[^,]+,,late on the first,$/);
    // A quote is doubled and a line break stays inside the quoted cell.
    expect(csv).toContain(`"He said ""hi"", then left\nsecond line"`);
    // A formula is kept as text.
    expect(csv).toContain(`"'=HYPERLINK(""http://x"")"`);
    expect(csv).toContain(",Door Open,Device,");
    // Header, four rows and the empty rest after the final line break (the quoted \n is not a record end).
    expect(lines).toHaveLength(6);
    expect(lines[5]).toBe("");
  });

  it("uses the same filters and zone as the list", async () => {
    const r = await api(acme, "POST", `${BASE}/user/activityReport`, { filterFromDate: "2020-07-02", filterToDate: "2020-07-02", tz: "UTC" });
    const lines = r.body.payload.trim().split("\r\n");
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/^07\/02\/2020 10:00:00 UTC,Sentinel Unlock,Sentinel,/);
  });
});

describe("notes", () => {
  it("requires the note text and adds and lists notes with author and date", async () => {
    const empty = await api(acme, "POST", `${BASE}/user/createActivityLogNotes`, { id: ids.noonJul2, note_description: "   " });
    expect(empty.status).toBe(400);
    expect(empty.body.message).toContain("Note is required");
    const missing = await api(acme, "POST", `${BASE}/user/createActivityLogNotes`, { id: ids.noonJul2 });
    expect(missing.status).toBe(400);

    const add = await api(acme, "POST", `${BASE}/user/createActivityLogNotes`, { id: ids.noonJul2, note_description: "  Checked the camera  " });
    expect(add.status).toBe(200);
    expect(add.body.message).toBe("Note added");
    await api(acme, "POST", `${BASE}/user/createActivityLogNotes`, { id: ids.noonJul2, note_description: "Second note" });

    const notes = await api(acme, "GET", `${BASE}/user/getActivityLogNotes?id=${ids.noonJul2}`);
    expect(notes.status).toBe(200);
    expect(notes.body.payload.map((x: { note_description: string }) => x.note_description)).toEqual(["Checked the camera", "Second note"]);
    expect(notes.body.payload[0].User).toEqual({ dispay_name: "Admin, Alice" });
    expect(typeof notes.body.payload[0].createdAt).toBe("number");
    expect((await api(acme, "GET", `${BASE}/user/getActivityLogNotes?id=999999`)).status).toBe(404);
  });
});

describe("GET /user/getActivityOptions", () => {
  it("lists activity names with their type and only the company's users and devices", async () => {
    const r = await api(acme, "GET", `${BASE}/user/getActivityOptions`);
    expect(r.status).toBe(200);
    const p = r.body.payload;
    expect(p.activities).toContainEqual(expect.objectContaining({ name: "Access Granted", type: "Device", alert_conditions: "011" }));
    expect(p.users).toContainEqual(expect.objectContaining({ id: 3, name: "Admin, Alice", type: "User", e_mail: "admin@acme.example" }));
    expect(p.users.some((x: { e_mail: string }) => x.e_mail === "admin@beta.example")).toBe(false);
    expect(p.devices.map((x: { id: number }) => x.id)).not.toContain(13);
    expect(p.devices[0].type).toBe("Device");
    // Named as the log names them: the full name, not the short code.
    expect(p.devices).toContainEqual({ id: 1, name: "Main Entrance", type: "Device" });
  });
});

describe("OpenAPI", () => {
  it("documents the five activity calls", async () => {
    const r = await api(null, "GET", "/api/openapi.json");
    expect(r.status).toBe(200);
    for (const path of ["/user/activityLogs", "/user/activityReport", "/user/createActivityLogNotes", "/user/getActivityLogNotes", "/user/getActivityOptions"]) {
      expect(Object.keys(r.body.paths)).toContain(`${BASE}${path}`);
    }
    expect(JSON.stringify(r.body.paths[`${BASE}/user/activityLogs`])).toContain("filterOperationType");
  });
});
