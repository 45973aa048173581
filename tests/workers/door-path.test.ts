// @clock: decides at the Worker's instant; scripts/test.sh runs this file again half an hour before the DST switch.
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { FEED_ENTITIES } from "~/services/gateway-feed.server";
import { api, login } from "./helpers";

/**
 * What the console does must reach the doors: every change that can alter a decision shows up on the
 * gateway feed, with fobs on the keys they were given with. Demo ids (db/seed/demo.ts): ACME devices
 * 1–12, ACME group 1 holds device 1; BETA device 13.
 */
const BASE = "/api/admin";
const SECRET = String((env as unknown as { GATEWAY_SECRET: string }).GATEWAY_SECRET);
type Change = { type: string; op: string; id: string; data?: Record<string, any> };

let acme: string;
let beta: string;
beforeAll(async () => {
  [acme, beta] = await Promise.all([login("acme"), login("beta")]);
});

/** The feed's head now, and everything after a cursor (one incremental page is plenty here). */
async function head(): Promise<string> {
  let r = await api(`Bearer ${SECRET}`, "GET", "/api/gateway/changes?limit=1000");
  while (r.body.more) r = await api(`Bearer ${SECRET}`, "GET", `/api/gateway/changes?limit=1000&cursor=${r.body.cursor}`);
  return r.body.cursor;
}
async function after(cursor: string): Promise<Change[]> {
  const r = await api(`Bearer ${SECRET}`, "GET", `/api/gateway/changes?limit=1000&cursor=${cursor}`);
  expect(r.status).toBe(200);
  return r.body.changes;
}

let seq = 0;
const person = (first: string) => {
  seq++;
  return {
    firstName: first,
    lastName: "Door",
    displayName: `Door, ${first}`,
    emailId: `${first.toLowerCase()}.${seq}@door.example`,
    countryCode: "1",
    phoneNumer: `55577${String(seq).padStart(5, "0")}`,
  };
};
const fullKey = (userId: number, deviceId: number, fob: string | null = null) => ({
  userId,
  eKey: deviceId,
  type: "device",
  accessType: "full_access",
  FOBDeviceId: fob,
  entryId: null,
});
const check = (token: string, checks: unknown[]) => api(token, "POST", `${BASE}/device/checkAccess`, { checks });
const AT = "2026-11-23T10:00:00Z";

describe("a user added in the console reaches the gateways", () => {
  it("announces the new user, then the key given to them, and the door opens for them", async () => {
    const cursor = await head();
    const added = await api(acme, "POST", `${BASE}/user/addUser`, person("Nadia"));
    expect(added.status).toBe(200);
    const id = String(added.body.payload.id);
    const assigned = await api(acme, "POST", `${BASE}/user/assignKeyToUser`, fullKey(Number(id), 3));
    expect(assigned.status).toBe(200);

    const changes = await after(cursor);
    const user = changes.find((c) => c.type === "user" && c.id === id);
    expect(user?.data).toMatchObject({ id, companyId: "ACME", active: true });
    const key = changes.find((c) => c.type === "ekey" && c.id === String(assigned.body.payload.entryId));
    expect(key?.data).toMatchObject({ userId: id, deviceId: "3", companyId: "ACME" });

    const [opens] = (await check(acme, [{ deviceId: 3, credential: { type: "user", id }, at: AT }])).body.payload;
    expect(opens).toMatchObject({ allowed: true, code: null, key: { kind: "ekey" }, userId: id });
  });

  it("forgetting a phone takes the phone key off the user at the gateways", async () => {
    const added = await api(acme, "POST", `${BASE}/user/addUser`, person("Pia"));
    const id = added.body.payload.id as number;
    await env.DB.prepare("update users set bound_device_id = 'phone-pia' where id = ?").bind(id).run();
    const cursor = await head();
    expect((await api(acme, "DELETE", `${BASE}/user/forgetDevice?id=${id}`)).status).toBe(200);
    const user = (await after(cursor)).find((c) => c.type === "user" && c.id === String(id));
    expect(user?.data?.phoneKeys).toEqual([]);
  });
});

describe("fobs are credentials of the keys they were given with", () => {
  it("sends the fob on the key, and removing the key revokes it", async () => {
    const id = (await api(acme, "POST", `${BASE}/user/addUser`, person("Fran"))).body.payload.id as number;
    const cursor = await head();
    const given = await api(acme, "POST", `${BASE}/user/assignKeyToUser`, fullKey(id, 4, " F-9001 "));
    expect(given.status).toBe(200);
    const entryId = String(given.body.payload.entryId);
    const key = (await after(cursor)).find((c) => c.type === "ekey" && c.id === entryId);
    expect(key?.data?.fob).toBe("F-9001");

    const fob = { type: "fob", id: "F-9001" };
    const [atDoor, elsewhere] = (
      await check(acme, [
        { deviceId: 4, credential: fob, at: AT },
        { deviceId: 5, credential: fob, at: AT },
      ])
    ).body.payload;
    expect(atDoor.allowed).toBe(true);
    expect(elsewhere).toMatchObject({ allowed: false, code: "no_key" });

    const before = await head();
    expect((await api(acme, "DELETE", `${BASE}/user/deleteAssignedEkey?entryId=${entryId}`)).status).toBe(200);
    expect((await after(before)).some((c) => c.type === "ekey" && c.id === entryId && c.op === "delete")).toBe(true);
    const [revoked] = (await check(acme, [{ deviceId: 4, credential: fob, at: AT }])).body.payload;
    expect(revoked).toMatchObject({ allowed: false, code: "unknown_credential", reason: "Unknown credential" });
  });

  it("refuses a fob number another user of the company holds, with a clear message, and stores nothing", async () => {
    const holder = (await api(acme, "POST", `${BASE}/user/addUser`, person("Hugo"))).body.payload.id as number;
    const other = (await api(acme, "POST", `${BASE}/user/addUser`, person("Olga"))).body.payload.id as number;
    expect((await api(acme, "POST", `${BASE}/user/assignKeyToUser`, fullKey(holder, 6, "F-777"))).status).toBe(200);
    // The holder may carry the same fob on another of their keys.
    expect((await api(acme, "POST", `${BASE}/user/assignKeyToUser`, fullKey(holder, 7, "F-777"))).status).toBe(200);

    const taken = await api(acme, "POST", `${BASE}/user/assignKeyToUser`, fullKey(other, 6, "F-777"));
    expect(taken.status).toBe(422);
    expect(taken.body.message).toBe("This fob number is already given to another user in this company");
    const { results } = await env.DB.prepare("select count(*) n from ekey_assignments where user_id = ?").bind(other).all<{ n: number }>();
    expect(results[0].n).toBe(0);
    // The database refuses it too, whatever path writes it.
    await expect(
      env.DB.prepare("insert into ekey_assignments (company_id, user_id, device_id, access_type, fob_device_id) values (3, ?, 6, 'full_access', 'F-777')").bind(other).run(),
    ).rejects.toThrow(/fob_taken/);
  });

  it("the same fob number in another company opens only that company's doors for its own holder", async () => {
    const ann = (await api(acme, "POST", `${BASE}/user/addUser`, person("Ann"))).body.payload.id as number;
    expect((await api(acme, "POST", `${BASE}/user/assignKeyToUser`, fullKey(ann, 8, "0042"))).status).toBe(200);
    const bob = (await api(beta, "POST", `${BASE}/user/addUser`, person("Bob"))).body.payload.id as number;
    expect((await api(beta, "POST", `${BASE}/user/assignKeyToUser`, fullKey(bob, 13, "0042"))).status).toBe(200);

    const fob = { type: "fob", id: "0042" };
    const [acmeDoor] = (await check(acme, [{ deviceId: 8, credential: fob, at: AT }])).body.payload;
    expect(acmeDoor).toMatchObject({ allowed: true, userId: String(ann) });
    const [betaDoor] = (await check(beta, [{ deviceId: 13, credential: fob, at: AT }])).body.payload;
    expect(betaDoor).toMatchObject({ allowed: true, userId: String(bob) });
  });
});

describe("POST /device/checkAccess", () => {
  it("answers a door of another company as not enabled, and a user of another company as unknown", async () => {
    const [foreignDoor, foreignUser] = (
      await check(acme, [
        { deviceId: 13, credential: { type: "user", id: "4" }, at: AT },
        { deviceId: 1, credential: { type: "user", id: "4" }, at: Date.parse(AT) },
      ])
    ).body.payload;
    expect(foreignDoor).toMatchObject({ allowed: false, code: "door_disabled", reason: "This door is not enabled" });
    expect(foreignUser).toMatchObject({ allowed: false, code: "unknown_credential", reason: "Unknown credential" });
  });

  it("counts one key alone when the check names it, as a board does with a signed credential", async () => {
    const id = (await api(acme, "POST", `${BASE}/user/addUser`, person("Kai"))).body.payload.id as number;
    const zones = (await api(acme, "GET", `${BASE}/user/getAllTimeZone`)).body.payload as { id: number; name: string }[];
    const full = await api(acme, "POST", `${BASE}/user/assignKeyToUser`, fullKey(id, 4));
    const nights = await api(acme, "POST", `${BASE}/user/assignKeyToUser`, {
      ...fullKey(id, 4),
      accessType: "custom_access",
      startDate: "2026-01-01",
      endDate: "",
      isNeverEnd: "1",
      isAllDay: "0",
      startTime: "22:00",
      endTime: "23:00",
      scheduleDays: [true, true, true, true, true, true, true],
      zone: zones.find((z) => z.name === "UTC")!.id,
    });
    expect([full.status, nights.status]).toEqual([200, 200]);
    const user = { type: "user", id: String(id) };
    const [any, onlyNights, onlyFull, otherKind] = (
      await check(acme, [
        { deviceId: 4, credential: user, at: AT },
        { deviceId: 4, credential: user, at: AT, key: { id: String(nights.body.payload.entryId), kind: "ekey" } },
        { deviceId: 4, credential: user, at: AT, key: { id: String(full.body.payload.entryId), kind: "ekey" } },
        { deviceId: 4, credential: user, at: AT, key: { id: String(full.body.payload.entryId), kind: "group" } },
      ])
    ).body.payload;
    expect(any).toMatchObject({ allowed: true });
    expect(onlyNights).toMatchObject({ allowed: false, code: "outside_schedule" });
    expect(onlyFull).toMatchObject({ allowed: true, key: { id: String(full.body.payload.entryId), kind: "ekey" } });
    expect(otherKind).toMatchObject({ allowed: false, code: "no_key" });
  });

  it("refuses bad input with a 400 and the read-only role without the devices module is refused", async () => {
    for (const body of [
      {},
      { checks: [] },
      { checks: [{ deviceId: 1, credential: { type: "card", id: "x" }, at: AT }] },
      { checks: [{ deviceId: 1, credential: { type: "user", id: "1" }, at: "soon" }] },
    ]) {
      expect((await api(acme, "POST", `${BASE}/device/checkAccess`, body)).status).toBe(400);
    }
    const many = Array.from({ length: 501 }, () => ({ deviceId: 1, credential: { type: "user", id: "1" }, at: AT }));
    expect((await check(acme, many)).status).toBe(400);
  });
});

describe("the feed is written by the database for every change a door depends on", () => {
  it("names only entities the feed knows", async () => {
    const { results } = await env.DB.prepare("select name, sql from sqlite_master where type = 'trigger' and name like 'feed_%'").all<{ name: string; sql: string }>();
    expect(results.length).toBeGreaterThan(20);
    for (const t of results) {
      // `VALUES (company, 'entity', …)` or `SELECT company, 'entity', …` (a change that fans out to many rows).
      const entities = [...t.sql.matchAll(/(?:VALUES \(|SELECT )[^,]+, '(\w+)'/g)].map((m) => m[1]);
      expect(entities.length, t.name).toBeGreaterThan(0);
      for (const e of entities) expect(FEED_ENTITIES, t.name).toContain(e);
    }
  });
});
