/**
 * Group keys and fobs in the users CSV (decision 0089): the optional `group_keys` and `fob` columns. The
 * preview counts and refuses rows with the right messages and writes nothing; the commit writes the keys
 * in the part's batch, where the key list and the gateways' feed see them; the same file again changes
 * nothing; an existing key gets the fob only when it has none; without the users add right no key is
 * given; an export imported back changes nothing.
 */
import { and, eq, gt, inArray, isNull, like, max, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { api, auditsNamed, consoleWorker, createDeviceGroup, db, login, ORIGIN, schema } from "./helpers";

const ACME = 3;
const u = schema.users;
const k = schema.ekeyAssignments;
const HEADER = "first_name,last_name,display_name,email,country_code,phone,role,status,external_id,group_keys,fob";
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
  [7, [{ column: "fob", message: "A fob is given with keys: name the device groups in group_keys" }]],
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
    expect(lines[0]).toBe(`\uFEFF${HEADER}`);
    expect(lines.find((l) => l.includes("gina.keys@acme.example"))).toBe(
      'Gina,Keys,"Keys, Gina",gina.keys@acme.example,034,699100001,,active,,Imp Floor\\|3|Imp Fourth|Imp Lobby|Imp Third,',
    );
    const back = await preview(admin, text);
    expect(back.status).toBe(200);
    expect(back.body.payload.counts).toMatchObject({ create: 0, change: 0, refuse: 0 });
  });
});
