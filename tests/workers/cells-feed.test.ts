/**
 * The change feed by cell (docs/decisions/0050-cells.md, docs/gateway-api.md §1 and §5). Two gateways: the
 * demo's, of cell main, and one of cell b. ACME, the demo company with every kind of record (doors, board
 * credentials, users, e-keys, group keys, scheduled-open hours), moves to b through the admin API: main's
 * feed deletes every record of it, b's feed sends each of them exactly as main's snapshot had it, and from
 * then on each cell hears only of its own companies.
 */
import { env } from "cloudflare:test";
import { and, eq, isNull, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { api, consoleWorker, db, login, ORIGIN, schema } from "./helpers";

const MAIN_SECRET = String(env.GATEWAY_SECRET);
const B_SECRET = "cell-b-feed-secret";
const B_URL = "mqtts://cell-b.example:8884";
const ACME = 3;
const BETA = 4;

type Change = { type: string; op: "upsert" | "delete"; id: string; data?: Record<string, any> };
type Page = { v: 1; changes: Change[]; cursor: string; more: boolean; reset?: boolean };

async function get(secret: string, path: string) {
  const res = await consoleWorker.fetch(`${ORIGIN}/api/gateway${path}`, { headers: { Authorization: `Bearer ${secret}` } });
  return { status: res.status, body: (await res.json()) as any };
}

/** Follows the feed from `cursor` (a snapshot without one) until nothing more, as a gateway does. */
async function follow(secret: string, cursor?: string, limit = 7) {
  const changes: Change[] = [];
  let query = cursor === undefined ? `?limit=${limit}` : `?limit=${limit}&cursor=${cursor}`;
  for (;;) {
    const r = await get(secret, `/changes${query}`);
    expect(r.status).toBe(200);
    const page = r.body as Page;
    changes.push(...page.changes);
    if (!page.more) return { changes, cursor: page.cursor };
    query = `?limit=${limit}&cursor=${page.cursor}`;
  }
}

const keyOf = (c: Change) => `${c.type}/${c.id}`;
/** The last change of each record: what a gateway holds once it applied them. */
const latest = (changes: Change[]) => new Map(changes.map((c) => [keyOf(c), c]));

/** A company's records in a list of changes: the company, its doors and their board credentials, its users, keys and scheduled-open hours. */
async function recordsOf(companyId: number, code: string, changes: Change[]): Promise<Map<string, Change>> {
  const ids = async (table: typeof schema.devices | typeof schema.users | typeof schema.ekeyAssignments) =>
    (await db().select({ id: table.id }).from(table).where(eq(table.companyId, companyId))).map((r) => String(r.id));
  const [doors, users, keys] = [await ids(schema.devices), await ids(schema.users), await ids(schema.ekeyAssignments)];
  const wanted = new Set([
    `company/${code}`,
    `scheduledOpen/${companyId}`,
    ...doors.flatMap((id) => [`device/${id}`, `boardCredential/${id}`]),
    ...users.map((id) => `user/${id}`),
    ...keys.flatMap((id) => [`ekey/${id}`, `groupKey/${id}`]),
  ]);
  return latest(changes.filter((c) => wanted.has(keyOf(c))));
}

const PLATFORM_TYPES = new Set(["firmware", "cell"]);

let root: string;
let mainStart: { changes: Change[]; cursor: string };
let bStart: { changes: Change[]; cursor: string };

beforeAll(async () => {
  const hash = [...new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(B_SECRET)))].map((b) => b.toString(16).padStart(2, "0")).join("");
  await db().insert(schema.gateways).values({ name: "cell-b", secretHash: hash, cell: "b" });
  await db().insert(schema.cells).values({ name: "b", mqttUrl: B_URL, label: "Cell B" });
  // A platform record: every cell's gateways get it.
  await db().insert(schema.firmwareReleases).values({ companyId: 1, version: "9.9.9", r2Key: "fw/cells", fileName: "fw.bin", size: 3, sha256: "00" });
  root = await login("root");
  mainStart = await follow(MAIN_SECRET);
  bStart = await follow(B_SECRET);
});

describe("snapshots by cell", () => {
  it("each gateway's snapshot opens with its own cell record and holds only its cell's companies, and both hold the firmware", async () => {
    expect(mainStart.changes[0]).toEqual({ type: "cell", op: "upsert", id: "main", data: { id: "main", mqttUrl: "mqtt://127.0.0.1:1883" } });
    expect(bStart.changes[0]).toEqual({ type: "cell", op: "upsert", id: "b", data: { id: "b", mqttUrl: B_URL } });
    expect(mainStart.changes.filter((c) => c.type === "cell")).toHaveLength(1);

    const companies = await db().select({ code: schema.companies.code }).from(schema.companies);
    expect(
      mainStart.changes
        .filter((c) => c.type === "company")
        .map((c) => c.id)
        .sort(),
    ).toEqual(companies.map((c) => c.code).sort());
    expect(bStart.changes.filter((c) => !PLATFORM_TYPES.has(c.type))).toEqual([]);

    const firmware = (changes: Change[]) => changes.filter((c) => c.type === "firmware");
    expect(firmware(bStart.changes).map((c) => c.data?.version)).toContain("9.9.9");
    expect(firmware(bStart.changes)).toEqual(firmware(mainStart.changes));
  });
});

describe("a company moved to another cell", () => {
  let acmeBefore: Map<string, Change>;
  let mainMove: { changes: Change[]; cursor: string };
  let bMove: { changes: Change[]; cursor: string };

  beforeAll(async () => {
    acmeBefore = await recordsOf(ACME, "ACME", mainStart.changes);
    const r = await api(root, "PUT", "/api/admin/company/setCompanyCell", { id: ACME, cell: "b" });
    expect(r.status).toBe(200);
    mainMove = await follow(MAIN_SECRET, mainStart.cursor);
    bMove = await follow(B_SECRET, bStart.cursor);
  });

  it("had every kind of record in main's snapshot", () => {
    const types = new Set([...acmeBefore.values()].filter((c) => c.op === "upsert").map((c) => c.type));
    expect([...types].sort()).toEqual(["boardCredential", "company", "device", "ekey", "groupKey", "scheduledOpen", "user"]);
  });

  it("main's feed deletes every record of the company, and nothing else", () => {
    const after = latest(mainMove.changes);
    expect([...after.keys()].sort()).toEqual([...acmeBefore.keys()].sort());
    expect([...after.values()].every((c) => c.op === "delete" && c.data === undefined)).toBe(true);
  });

  it("b's feed sends every record of the company as main's snapshot had it, and nothing of another company", () => {
    const after = latest(bMove.changes);
    expect([...after.values()].sort((a, b) => keyOf(a).localeCompare(keyOf(b)))).toEqual([...acmeBefore.values()].sort((a, b) => keyOf(a).localeCompare(keyOf(b))));
  });

  it("afterwards main's snapshot has none of the company's records and b's has exactly them", async () => {
    const main = await follow(MAIN_SECRET);
    const b = await follow(B_SECRET, undefined, 1000);
    const mainKeys = new Set(main.changes.map(keyOf));
    expect([...acmeBefore.keys()].filter((k) => mainKeys.has(k))).toEqual([]);
    expect(b.changes[0]).toMatchObject({ type: "cell", id: "b" });
    const bRecords = latest(b.changes.filter((c) => !PLATFORM_TYPES.has(c.type)));
    expect([...bRecords.values()].sort((x, y) => keyOf(x).localeCompare(keyOf(y)))).toEqual([...acmeBefore.values()].sort((x, y) => keyOf(x).localeCompare(keyOf(y))));
  });

  it("then a change to one company's key reaches only its own cell's feed, and each cursor moves past the other's", async () => {
    const keyOfCompany = async (companyId: number) => (await db().select().from(schema.ekeyAssignments).where(eq(schema.ekeyAssignments.companyId, companyId)).limit(1))[0];
    const [acmeKey, betaKey] = [await keyOfCompany(ACME), await keyOfCompany(BETA)];
    for (const k of [acmeKey, betaKey])
      await db()
        .update(schema.ekeyAssignments)
        .set({ updatedAt: sql`updated_at + 1` })
        .where(eq(schema.ekeyAssignments.id, k.id));
    const head = String(
      (
        await db()
          .select({ seq: sql<number>`max(seq)` })
          .from(schema.gatewayChanges)
      )[0].seq,
    );

    const main = await follow(MAIN_SECRET, mainMove.cursor);
    const b = await follow(B_SECRET, bMove.cursor);
    const kinds = (k: typeof acmeKey) => `${k.isGroup ? "groupKey" : "ekey"}/${k.id}`;
    expect(main.changes.map(keyOf)).toEqual([kinds(betaKey)]);
    expect(b.changes.map(keyOf)).toEqual([kinds(acmeKey)]);
    expect([main.cursor, b.cursor]).toEqual([head, head]);
  });

  it("a device transferred to a company of the other cell is deleted in the cell it left and sent to the one it joined", async () => {
    const [door] = await db()
      .select({ id: schema.devices.id })
      .from(schema.devices)
      .where(and(eq(schema.devices.companyId, BETA), isNull(schema.devices.deletedAt), eq(schema.devices.status, "configured")))
      .limit(1);
    const [mainAt, bAt] = [await follow(MAIN_SECRET, mainMove.cursor), await follow(B_SECRET, bMove.cursor)];
    await db().update(schema.devices).set({ companyId: ACME }).where(eq(schema.devices.id, door.id));
    try {
      const main = latest((await follow(MAIN_SECRET, mainAt.cursor)).changes);
      const b = latest((await follow(B_SECRET, bAt.cursor)).changes);
      const id = String(door.id);
      expect(main.get(`device/${id}`)).toEqual({ type: "device", op: "delete", id });
      expect(main.get(`boardCredential/${id}`)).toEqual({ type: "boardCredential", op: "delete", id });
      expect(b.get(`device/${id}`)).toMatchObject({ op: "upsert", data: { companyId: "ACME" } });
      expect(b.get(`boardCredential/${id}`)).toMatchObject({ op: "upsert", data: { deviceId: id } });
    } finally {
      await db().update(schema.devices).set({ companyId: BETA }).where(eq(schema.devices.id, door.id));
    }
  });

  it("a change to a cell's record reaches that cell's gateways only", async () => {
    const [mainAt, bAt] = [await follow(MAIN_SECRET, mainMove.cursor), await follow(B_SECRET, bMove.cursor)];
    await db().update(schema.cells).set({ mqttUrl: "mqtts://cell-b2.example:8884" }).where(eq(schema.cells.name, "b"));
    try {
      expect((await follow(B_SECRET, bAt.cursor)).changes).toEqual([{ type: "cell", op: "upsert", id: "b", data: { id: "b", mqttUrl: "mqtts://cell-b2.example:8884" } }]);
      expect((await follow(MAIN_SECRET, mainAt.cursor)).changes).toEqual([]);
    } finally {
      await db().update(schema.cells).set({ mqttUrl: B_URL }).where(eq(schema.cells.name, "b"));
    }
  });
});

describe("a device's cell (GET /api/gateway/devices/<id>/cell)", () => {
  it("answers any cell's live device to either cell's gateway, with its cell's MQTT endpoint", async () => {
    const doorOf = async (companyId: number) =>
      String(
        (
          await db()
            .select({ id: schema.devices.id })
            .from(schema.devices)
            .where(and(eq(schema.devices.companyId, companyId), isNull(schema.devices.deletedAt)))
            .limit(1)
        )[0].id,
      );
    const [acmeDoor, betaDoor] = [await doorOf(ACME), await doorOf(BETA)];
    for (const secret of [MAIN_SECRET, B_SECRET]) {
      expect(await get(secret, `/devices/${acmeDoor}/cell`)).toEqual({ status: 200, body: { v: 1, deviceId: acmeDoor, cell: "b", mqttUrl: B_URL } });
      expect(await get(secret, `/devices/${betaDoor}/cell`)).toEqual({ status: 200, body: { v: 1, deviceId: betaDoor, cell: "main", mqttUrl: "mqtt://127.0.0.1:1883" } });
    }
  });

  it("answers 404 for a removed or unknown device, 400 for a malformed id and 401 without a gateway secret", async () => {
    const [gone] = await db()
      .update(schema.devices)
      .set({ deletedAt: Date.now() })
      .where(eq(schema.devices.id, sql`(select max(id) from devices where company_id = ${ACME} and deleted_at is null)`))
      .returning({ id: schema.devices.id });
    expect(await get(B_SECRET, `/devices/${gone.id}/cell`)).toMatchObject({ status: 404, body: { error: "not_found" } });
    expect(await get(B_SECRET, `/devices/999999999/cell`)).toMatchObject({ status: 404, body: { error: "not_found" } });
    for (const bad of ["abc", "0", "1.5", "-3", "12345678901234567"])
      expect(await get(B_SECRET, `/devices/${bad}/cell`), bad).toMatchObject({ status: 400, body: { error: "bad_request" } });
    expect((await get("not-a-gateway", `/devices/1/cell`)).status).toBe(401);
  });
});
