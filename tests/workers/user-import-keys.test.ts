/**
 * E-keys, group keys and fobs in the users CSV (decision 0089): the optional `e_keys`, `group_keys` and `fob` columns. The
 * preview counts and refuses rows with the right messages and writes nothing; the commit writes the keys
 * in the part's batch, where the key list and the gateways' feed see them; the same file again changes
 * nothing; an existing key gets the fob only when it has none; without the users add right no key is
 * given; an export imported back changes nothing. The same for `e_keys`: permanent full-access e-keys to
 * the named doors, the fob on them by the same rule, the export naming only such e-keys.
 */
import { and, eq, gt, inArray, isNull, like, max, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { api, auditsNamed, consoleWorker, createDeviceGroup, db, login, ORIGIN, schema } from "./helpers";

const ACME = 3;
const u = schema.users;
const k = schema.ekeyAssignments;
const HEADER = "first_name,last_name,display_name,email,country_code,phone,role,status,external_id,group_keys,fob";
/** The export's: every optional key column. */
const EXPORT_HEADER = "first_name,last_name,display_name,email,country_code,phone,role,status,external_id,e_keys,group_keys,fob";
const preview = (token: string, csv: string) => api(token, "POST", "/api/admin/user/importUsersPreview", { csv });
const commit = (token: string, csv: string, chunk = 0) => api(token, "POST", "/api/admin/user/importUsers", { csv, chunk });
const keyCount = async () =>
  (
    await db()
      .select({ n: sql<number>`count(*)` })
      .from(k)
      .where(eq(k.companyId, ACME))
  )[0].n;
const feedHead = async () =>
  (
    await db()
      .select({ head: max(schema.gatewayChanges.seq) })
      .from(schema.gatewayChanges)
  )[0].head ?? 0;
const userByEmail = async (email: string) =>
  (
    await db()
      .select()
      .from(u)
      .where(and(eq(u.companyId, ACME), isNull(u.deletedAt), eq(u.email, email)))
  )[0];
const refusals = (rows: { outcome: string; line: number; errors: unknown }[]) => rows.filter((x) => x.outcome === "refuse").map((x) => [x.line, x.errors]);

let admin: string;
let lobby: number;
let floor: number;
let door: number[];
const group = (name: string, over: Record<string, unknown> = {}) => createDeviceGroup(admin, name, door, over);
beforeAll(async () => {
  admin = await login("acme");
  const [d] = await db()
    .select({ id: schema.devices.id })
    .from(schema.devices)
    .where(and(eq(schema.devices.companyId, ACME), isNull(schema.devices.deletedAt)))
    .limit(1);
  door = [d.id];
  lobby = await group("Imp Lobby");
  // A name holding the list's separator: written as "Imp Floor\|3" and read back.
  floor = await group("Imp Floor|3");
  // A fob another ACME user holds.
  const [other] = await db()
    .select()
    .from(u)
    .where(and(eq(u.companyId, ACME), isNull(u.deletedAt), like(u.email, "%@acme.example")))
    .limit(1);
  await db().insert(k).values({ companyId: ACME, userId: other.id, isGroup: true, groupId: lobby, accessType: "custom_access", fobDeviceId: "FOB-TAKEN" });
});

const file = () =>
  [
    HEADER,
    'Gina,Keys,,gina.keys@acme.example,034,699 100 001,,,,"imp lobby|Imp Floor\\|3",FOB-1',
    "Hugo,Keys,,hugo.keys@acme.example,034,699 100 002,,,,Nowhere|Imp Lobby,",
    "Iris,Keys,,iris.keys@acme.example,034,699 100 003,,,,Imp Lobby,FOB-1",
    "Jon,Keys,,jon.keys@acme.example,034,699 100 004,,,,Imp Lobby,FOB-TAKEN",
    `Kim,Keys,,kim.keys@acme.example,034,699 100 005,,,,${Array.from({ length: 21 }, (_, i) => `G${i}`).join("|")},`,
    "Leo,Keys,,leo.keys@acme.example,034,699 100 006,,,,,FOB-9",
    "Mia,Keys,,mia.keys@acme.example,034,699 100 007,,,,Imp Lobby,bad|fob",
  ].join("\n");

const REFUSED = [
  [3, [{ column: "group_keys", message: "No device group of this company has this name: Nowhere" }]],
  [4, [{ column: "fob", message: "This fob number is given to another user in an earlier row of the file" }]],
  [5, [{ column: "fob", message: "This fob number is already given to another user in this company" }]],
  [6, [{ column: "group_keys", message: "At most 20 group keys in a row" }]],
  [7, [{ column: "fob", message: "A fob is given with keys: name the doors in e_keys or the device groups in group_keys" }]],
  [8, [{ column: "fob", message: "The fob number may have at most 32 letters, digits, spaces, '-', '_', '.' or ':'" }]],
];

describe("group keys and fobs in the users file", () => {
  it("the preview counts and refuses rows with their reasons, and writes nothing", async () => {
    const keys = await keyCount();
    const r = await preview(admin, file());
    expect(r.status).toBe(200);
    expect(r.body.payload.counts).toEqual({ create: 1, change: 0, unchanged: 0, refuse: 6 });
    expect(refusals(r.body.payload.rows)).toEqual(REFUSED);
    expect(await keyCount()).toBe(keys);
    expect(await userByEmail("gina.keys@acme.example")).toBeUndefined();
  });

  it("the commit gives the keys with the fob in the user's batch: on the key list, in the feed, audited", async () => {
    const head = await feedHead();
    const r = await commit(admin, file());
    expect(r.status).toBe(200);
    expect(r.body.payload.counts).toEqual({ create: 1, change: 0, unchanged: 0, refuse: 6 });
    const gina = await userByEmail("gina.keys@acme.example");
    const list = await api(admin, "GET", `/api/admin/user/getAssignedEkeys?userId=${gina.id}`);
    expect(list.status).toBe(200);
    const keys = list.body.payload as { is_group?: unknown; group: { id: number } | null }[];
    const stored = await db().select().from(k).where(eq(k.userId, gina.id));
    expect(stored.map((x) => [x.groupId, x.isGroup, x.accessType, x.isNeverEnd, x.fobDeviceId, x.scheduleDays, x.startTime, x.endTime]).sort()).toEqual(
      [
        [lobby, true, "custom_access", true, "FOB-1", "1111100", "08:00", "18:00"],
        [floor, true, "custom_access", true, "FOB-1", "1111100", "08:00", "18:00"],
      ].sort(),
    );
    expect(keys).toHaveLength(2);
    const feed = await db()
      .select({ entityId: schema.gatewayChanges.entityId, op: schema.gatewayChanges.op })
      .from(schema.gatewayChanges)
      .where(and(gt(schema.gatewayChanges.seq, head), eq(schema.gatewayChanges.entity, "ekey")));
    expect(feed.map((x) => x.entityId).sort()).toEqual(stored.map((x) => x.id).sort());
    const audits = await auditsNamed("eKey Assigned", eq(schema.activityLogs.targetUserId, gina.id));
    expect(audits.map((a) => a.summary).sort()).toEqual(["Imp Floor|3: custom_access", "Imp Lobby: custom_access"]);
    for (const refused of ["hugo", "iris", "jon", "kim", "leo", "mia"]) expect(await userByEmail(`${refused}.keys@acme.example`)).toBeUndefined();
  });

  it("the same file again changes nothing", async () => {
    const keys = await keyCount();
    const head = await feedHead();
    const again = await preview(admin, file());
    expect(again.body.payload.counts).toEqual({ create: 0, change: 0, unchanged: 1, refuse: 6 });
    expect(refusals(again.body.payload.rows)).toEqual(REFUSED);
    expect((await commit(admin, file())).body.payload.counts).toEqual({ create: 0, change: 0, unchanged: 1, refuse: 6 });
    expect(await keyCount()).toBe(keys);
    expect(await feedHead()).toBe(head);
  });

  it("adds a key a known user lacks and puts the fob on the keys without one, keeping a key's other fob", async () => {
    const gina = await userByEmail("gina.keys@acme.example");
    const third = await group("Imp Third");
    // A key of Gina's to the third group without a fob, and one to the lobby with another fob stays as it is.
    await db().insert(k).values({ companyId: ACME, userId: gina.id, isGroup: true, groupId: third, accessType: "custom_access" });
    const csv = [HEADER, "Gina,Keys,,gina.keys@acme.example,034,699 100 001,,,,Imp Third|Imp Lobby,FOB-1"].join("\n");
    const p = await preview(admin, csv);
    expect(p.body.payload.rows).toEqual([expect.objectContaining({ line: 2, outcome: "change", changes: ["fob"] })]);
    await commit(admin, csv);
    const stored = await db()
      .select()
      .from(k)
      .where(and(eq(k.userId, gina.id), eq(k.groupId, third)));
    expect(stored.map((x) => x.fobDeviceId)).toEqual(["FOB-1"]);
    expect((await auditsNamed("eKey Modified", eq(schema.activityLogs.targetUserId, gina.id))).map((a) => a.summary)).toEqual(["Imp Third: fob"]);
    expect(await auditsNamed("User Modified", eq(schema.activityLogs.targetUserId, gina.id))).toEqual([]);

    const fourth = await group("Imp Fourth");
    const more = [HEADER, "Gina,Keys,,gina.keys@acme.example,034,699 100 001,,,,Imp Fourth,"].join("\n");
    expect((await preview(admin, more)).body.payload.rows).toEqual([expect.objectContaining({ outcome: "change", changes: ["group_keys"] })]);
    await commit(admin, more);
    expect(
      (
        await db()
          .select()
          .from(k)
          .where(and(eq(k.userId, gina.id), inArray(k.groupId, [lobby, floor, third, fourth])))
      ).length,
    ).toBe(4);
  });

  it("refuses a deactivated group for a new key, and keys without the users add right", async () => {
    await group("Imp Closed", { status: "3" });
    const closed = [HEADER, "Nia,Keys,,nia.keys@acme.example,034,699 100 008,,,,Imp Closed,"].join("\n");
    const c = await preview(admin, closed);
    expect(refusals(c.body.payload.rows)).toEqual([[2, [{ column: "group_keys", message: "This device group is deactivated: it takes no new keys: Imp Closed" }]]]);

    const key = await api(admin, "POST", "/api/admin/apiKey/createApiKey", {
      name: "Modify only",
      modules: ["users"],
      permission_add: false,
      permission_modify: true,
      permission_delete: false,
      expires_in_days: null,
    });
    expect(key.status, JSON.stringify(key.body)).toBe(200);
    const bearer = `Bearer ${key.body.payload.key}`;
    const csv = [HEADER, "Gina,Keys,,gina.keys@acme.example,034,699 100 001,,,,Imp Lobby|Imp Other,"].join("\n");
    await group("Imp Other");
    const keys = await keyCount();
    const r = await preview(bearer, csv);
    expect(refusals(r.body.payload.rows)).toEqual([[2, [{ column: "group_keys", message: "You may not give keys" }]]]);
    expect((await commit(bearer, csv)).body.payload.counts).toEqual({ create: 0, change: 0, unchanged: 0, refuse: 1 });
    expect(await keyCount()).toBe(keys);
  });

  it("the export writes the group keys and the fob, and imported back changes nothing", async () => {
    const res = await consoleWorker.fetch(`${ORIGIN}/api/admin/user/exportUsers`, { headers: { Authorization: admin } });
    const text = await res.text();
    const lines = text.trimEnd().split("\r\n");
    expect(lines[0]).toBe(`\uFEFF${EXPORT_HEADER}`);
    expect(lines.find((l) => l.includes("gina.keys@acme.example"))).toBe(
      'Gina,Keys,"Keys, Gina",gina.keys@acme.example,034,699100001,,active,,,Imp Floor\\|3|Imp Fourth|Imp Lobby|Imp Third,',
    );
    const back = await preview(admin, text);
    expect(back.status).toBe(200);
    expect(back.body.payload.counts).toMatchObject({ create: 0, change: 0, refuse: 0 });
  });
});

describe("e-keys in the users file", () => {
  const E_HEADER = "first_name,last_name,display_name,email,country_code,phone,role,status,external_id,e_keys,fob";
  const doors: Record<string, number> = {};
  const addDoor = async (name: string, status: "configured" | "unconfigured" = "configured") => {
    const [row] = await db()
      .insert(schema.devices)
      .values({ companyId: ACME, fullName: name, displayName: name, serialNumber: `IMP-${name}-${Math.random()}`, status })
      .returning({ id: schema.devices.id });
    return row.id;
  };
  beforeAll(async () => {
    doors.a = await addDoor("Imp Door A");
    // A name holding the list's separator: written as "Imp Door\|B" and read back.
    doors.b = await addDoor("Imp Door|B");
    doors.c = await addDoor("Imp Door C");
    doors.d = await addDoor("Imp Door D");
    await addDoor("Imp Twin");
    await addDoor("Imp Twin");
    await addDoor("Imp Unset", "unconfigured");
  });

  const eFile = () =>
    [
      E_HEADER,
      'Ola,Doors,,ola.doors@acme.example,034,699 200 001,,,,"imp door a|Imp Door\\|B",FOB-E1',
      "Pia,Doors,,pia.doors@acme.example,034,699 200 002,,,,Nowhere Door|Imp Door A,",
      "Quim,Doors,,quim.doors@acme.example,034,699 200 003,,,,Imp Twin,",
      "Rita,Doors,,rita.doors@acme.example,034,699 200 004,,,,Imp Unset,",
      `Sol,Doors,,sol.doors@acme.example,034,699 200 005,,,,${Array.from({ length: 21 }, (_, i) => `D${i}`).join("|")},`,
      "Tom,Doors,,tom.doors@acme.example,034,699 200 006,,,,,FOB-E9",
    ].join("\n");
  const E_REFUSED = [
    [3, [{ column: "e_keys", message: "No door of this company has this name: Nowhere Door" }]],
    [4, [{ column: "e_keys", message: "Several doors of this company have this name: Imp Twin" }]],
    [5, [{ column: "e_keys", message: "This door is not configured: it takes no new keys: Imp Unset" }]],
    [6, [{ column: "e_keys", message: "At most 20 e-keys in a row" }]],
    [7, [{ column: "fob", message: "A fob is given with keys: name the doors in e_keys or the device groups in group_keys" }]],
  ];

  it("the preview counts and refuses rows on e_keys with their reasons, and writes nothing", async () => {
    const keys = await keyCount();
    const r = await preview(admin, eFile());
    expect(r.status).toBe(200);
    expect(r.body.payload.counts).toEqual({ create: 1, change: 0, unchanged: 0, refuse: 5 });
    expect(refusals(r.body.payload.rows)).toEqual(E_REFUSED);
    expect(await keyCount()).toBe(keys);
    expect(await userByEmail("ola.doors@acme.example")).toBeUndefined();
  });

  it("the commit gives permanent full-access e-keys with the fob: on the key list, in the feed, audited; the same file again changes nothing", async () => {
    const head = await feedHead();
    const r = await commit(admin, eFile());
    expect(r.status).toBe(200);
    expect(r.body.payload.counts).toEqual({ create: 1, change: 0, unchanged: 0, refuse: 5 });
    const ola = await userByEmail("ola.doors@acme.example");
    const list = await api(admin, "GET", `/api/admin/user/getAssignedEkeys?userId=${ola.id}`);
    expect(list.status).toBe(200);
    type Listed = {
      is_group: boolean;
      ekeyDetails: { id: number } | null;
      access_type: string;
      is_never_end: boolean;
      is_all_day: boolean;
      end_date: unknown;
      FOBDeviceId: string | null;
    };
    const listed = (list.body.payload as Listed[]).map((x) => [x.is_group, x.ekeyDetails?.id, x.access_type, x.is_never_end, x.is_all_day, x.end_date, x.FOBDeviceId]);
    expect(listed.sort()).toEqual(
      [
        [false, doors.a, "full_access", true, true, null, "FOB-E1"],
        [false, doors.b, "full_access", true, true, null, "FOB-E1"],
      ].sort(),
    );
    const stored = await db().select().from(k).where(eq(k.userId, ola.id));
    expect(stored.map((x) => [x.deviceId, x.scheduleDays, x.startDate, x.timeZoneId, x.status]).sort()).toEqual(
      [
        [doors.a, "1111111", null, null, "1"],
        [doors.b, "1111111", null, null, "1"],
      ].sort(),
    );
    const feed = await db()
      .select({ entityId: schema.gatewayChanges.entityId })
      .from(schema.gatewayChanges)
      .where(and(gt(schema.gatewayChanges.seq, head), eq(schema.gatewayChanges.entity, "ekey")));
    expect(feed.map((x) => x.entityId).sort()).toEqual(stored.map((x) => x.id).sort());
    const audits = await auditsNamed("eKey Assigned", eq(schema.activityLogs.targetUserId, ola.id));
    expect(audits.map((a) => [a.summary, a.deviceId]).sort()).toEqual(
      [
        ["Imp Door A: full_access", doors.a],
        ["Imp Door|B: full_access", doors.b],
      ].sort(),
    );

    const keys = await keyCount();
    const again = await feedHead();
    const p = await preview(admin, eFile());
    expect(p.body.payload.counts).toEqual({ create: 0, change: 0, unchanged: 1, refuse: 5 });
    expect((await commit(admin, eFile())).body.payload.counts).toEqual({ create: 0, change: 0, unchanged: 1, refuse: 5 });
    expect(await keyCount()).toBe(keys);
    expect(await feedHead()).toBe(again);
  });

  it("adds an e-key a known user lacks and puts the fob on a held e-key without one, leaving the held e-key's access as it is", async () => {
    const ola = await userByEmail("ola.doors@acme.example");
    // A custom-window e-key to door C, without a fob: the file names C, so it gets the fob and stays custom.
    await db().insert(k).values({ companyId: ACME, userId: ola.id, isGroup: false, deviceId: doors.c, accessType: "custom_access", scheduleDays: "1111100", isNeverEnd: true });
    const csv = [E_HEADER, "Ola,Doors,,ola.doors@acme.example,034,699 200 001,,,,Imp Door A|Imp Door C|Imp Door D,FOB-E1"].join("\n");
    const p = await preview(admin, csv);
    expect(p.body.payload.rows).toEqual([expect.objectContaining({ line: 2, outcome: "change", changes: ["e_keys", "fob"] })]);
    await commit(admin, csv);
    const stored = await db().select().from(k).where(eq(k.userId, ola.id));
    expect(stored.map((x) => [x.deviceId, x.accessType, x.fobDeviceId]).sort()).toEqual(
      [
        [doors.a, "full_access", "FOB-E1"],
        [doors.b, "full_access", "FOB-E1"],
        [doors.c, "custom_access", "FOB-E1"],
        [doors.d, "full_access", "FOB-E1"],
      ].sort(),
    );
    expect((await auditsNamed("eKey Modified", eq(schema.activityLogs.targetUserId, ola.id))).map((a) => [a.summary, a.deviceId])).toEqual([["Imp Door C: fob", doors.c]]);
    expect(await auditsNamed("User Modified", eq(schema.activityLogs.targetUserId, ola.id))).toEqual([]);
  });

  it("refuses a new e-key without the users add right", async () => {
    const key = await api(admin, "POST", "/api/admin/apiKey/createApiKey", {
      name: "Modify only (e-keys)",
      modules: ["users"],
      permission_add: false,
      permission_modify: true,
      permission_delete: false,
      expires_in_days: null,
    });
    expect(key.status, JSON.stringify(key.body)).toBe(200);
    const bearer = `Bearer ${key.body.payload.key}`;
    const e = await addDoor("Imp Door E");
    const csv = [E_HEADER, "Ola,Doors,,ola.doors@acme.example,034,699 200 001,,,,Imp Door A|Imp Door E,"].join("\n");
    const keys = await keyCount();
    expect(refusals((await preview(bearer, csv)).body.payload.rows)).toEqual([[2, [{ column: "e_keys", message: "You may not give keys" }]]]);
    expect((await commit(bearer, csv)).body.payload.counts).toEqual({ create: 0, change: 0, unchanged: 0, refuse: 1 });
    expect(await keyCount()).toBe(keys);
    const ola = await userByEmail("ola.doors@acme.example");
    expect(
      await db()
        .select()
        .from(k)
        .where(and(eq(k.userId, ola.id), eq(k.deviceId, e))),
    ).toEqual([]);
  });

  it("the export writes the permanent full-access e-keys only, with their fob, and imported back changes nothing", async () => {
    const res = await consoleWorker.fetch(`${ORIGIN}/api/admin/user/exportUsers`, { headers: { Authorization: admin } });
    const text = await res.text();
    const lines = text.trimEnd().split("\r\n");
    expect(lines[0]).toBe(`\uFEFF${EXPORT_HEADER}`);
    // Door C's custom-window e-key is not expressible in the file: left out.
    expect(lines.find((l) => l.includes("ola.doors@acme.example"))).toBe(
      'Ola,Doors,"Doors, Ola",ola.doors@acme.example,034,699200001,,active,,Imp Door A|Imp Door D|Imp Door\\|B,,FOB-E1',
    );
    const keys = await keyCount();
    const back = await preview(admin, text);
    expect(back.status).toBe(200);
    expect(back.body.payload.counts).toMatchObject({ create: 0, change: 0, refuse: 0 });
    expect((await commit(admin, text)).body.payload.counts).toMatchObject({ create: 0, change: 0, refuse: 0 });
    expect(await keyCount()).toBe(keys);
  });
});
