// @clock: the log's rows are placed on UTC days counted back from the Worker's instant; scripts/test.sh runs this file again half an hour before the DST switch.
/**
 * Each company's activity log in its own store (docs/decisions/0047 and 0048): the console's Durable Object
 * follows D1 exactly once, keeps to one company, shows today's names, drains D1's outbox without losing or
 * doubling a row, takes gateway events itself (once by event id, never in D1), and answers the activity
 * service's pages, totals and reports exactly as the old single D1 table did (a differential over random
 * filters, sorts and pages against REFERENCE_DB, D1 migrated up to before the outbox).
 *
 * The console drains the outbox after every successful POST (its queue consumer). This file signs in
 * without one (a session written directly) and makes its POSTs in the last tests only, so what it counts
 * in D1 is not drained under it.
 */
import type { D1Migration } from "@cloudflare/vitest-pool-workers";
import { applyD1Migrations, env } from "cloudflare:test";
import { eq, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { beforeAll, describe, expect, it } from "vitest";
import coreModule from "~core/core.wasm";
import { createCore } from "~core";
import { INGEST_LIMIT, LOG_COLUMNS, NAME_COLUMNS, NOTE_COLUMNS, STORE_ID_BASE, TYPE_COLUMNS } from "~/durable/company-log-schema";
import { activityReport, activityReportStream, listActivity } from "~/services/activity.server";
import { drainActivityOutbox } from "~/services/activity-outbox.server";
import { ingestEvents } from "~/services/gateway-events.server";
import { ACTIVITY_SORTS } from "~/schemas/activity";
import { companyLogStub, type CompanyLogEnv } from "~/utils/company-log.server";
import { authFromToken, type Auth } from "~/utils/auth-guards.server";
import { newSession } from "~/utils/session.server";
import { seedDemo } from "../../db/seed/demo";
import { api, companyLog, db, login, schema, seedNow, workerNow } from "./helpers";
import { isoDay } from "../../db/seed/clock";

const BETA = 4;
const ROWS = 3_000;
const DAY = 86_400_000;
/** Inside the default 90-day hot window, so the store's upkeep archives these rows but keeps them at hand. */
let T0: number;
const ACME = 3;
const logEnv = env as unknown as CompanyLogEnv;
const core = createCore(coreModule);
/** D1 migrated up to before the outbox (0024) and seeded: the old single table (vitest.workers.config.ts). */
const REFERENCE_DB = (env as unknown as { REFERENCE_DB: D1Database }).REFERENCE_DB;
const reference = () => drizzle(REFERENCE_DB, { schema });

let beta: Auth;
let refs: { users: number[]; devices: number[]; groups: number[]; types: number[] };

/** An RPC call's error message (awaited here: `expect(...).rejects` leaves the RPC's own rejection unhandled). */
const failure = (call: Promise<unknown>) =>
  call.then(
    () => "no error",
    (e: Error) => e.message,
  );

/** A seeded random sequence, so a failing case can be run again as it was. */
function random(seed: number) {
  let s = seed;
  return () => (s = (s * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
}

/** BETA's admin signed in without a POST (which would wake the console's drain). */
async function betaAdmin(): Promise<Auth> {
  const [user] = await db().select({ id: schema.users.id }).from(schema.users).where(eq(schema.users.email, "admin@beta.example"));
  const { token, values } = await newSession({ userId: user.id, companyId: BETA, kind: "api", request: new Request("https://console.test"), now: workerNow() });
  await db().insert(schema.sessions).values(values);
  return (await authFromToken(db(), env as never, token, workerNow()))!;
}

const d1Count = async (companyId: number) => (await env.DB.prepare("SELECT count(*) AS n FROM activity_logs WHERE company_id = ?").bind(companyId).first<{ n: number }>())!.n;

const maxId = async () => (await env.DB.prepare("SELECT coalesce(max(seq), 0) AS id FROM sqlite_sequence WHERE name = 'activity_logs'").first<{ id: number }>())!.id;

beforeAll(async () => {
  T0 = (Math.floor(workerNow() / DAY) - 60) * DAY;
  beta = await betaAdmin();
  const [users, devices, groups, types] = await Promise.all([
    db().select({ id: schema.users.id }).from(schema.users).where(eq(schema.users.companyId, BETA)),
    db().select({ id: schema.devices.id }).from(schema.devices).where(eq(schema.devices.companyId, BETA)),
    db().select({ id: schema.deviceGroups.id }).from(schema.deviceGroups).where(eq(schema.deviceGroups.companyId, BETA)),
    db().select({ id: schema.activityTypes.id }).from(schema.activityTypes),
  ]);
  refs = { users: users.map((r) => r.id), devices: devices.map((r) => r.id), groups: groups.map((r) => r.id), types: types.map((r) => r.id).slice(0, 12) };
  const next = random(25);
  const pick = <T>(list: T[]) => (next() < 0.2 ? null : (list[Math.floor(next() * list.length)] ?? null));
  const rows = Array.from({ length: ROWS }, (_, i) => ({
    companyId: BETA,
    activityTypeId: refs.types[i % refs.types.length],
    operationType: (["Sentinel", "App", "Device", "Admin"] as const)[Math.floor(next() * 4)],
    createdByUserId: pick(refs.users),
    targetUserId: pick(refs.users),
    targetDeviceId: pick(refs.devices),
    targetDeviceGroupId: pick(refs.groups),
    summary: `row ${i}`,
    // Ties on purpose: every tenth row shares its minute with the one before.
    activityTimestamp: T0 + Math.floor(i - (i % 10 === 1 ? 1 : 0)) * 1_200_000,
  }));
  const statements = [];
  for (let i = 0; i < rows.length; i += 7)
    statements.push(
      db()
        .insert(schema.activityLogs)
        .values(rows.slice(i, i + 7)),
    );
  for (let i = 0; i < statements.length; i += 50) await db().batch(statements.slice(i, i + 50) as never);
});

describe("a company's log follows D1", () => {
  it("copies every row once, resumes an interrupted copy, and answers exact totals", async () => {
    const stub = companyLogStub(logEnv, BETA);
    // A copy cut off after 1,000 rows, as a crash would leave it, then finished by the next call.
    const first = await stub.catchUp(BETA, 1_000);
    expect(first).toMatchObject({ rows: 1_000, done: false });
    const rest = await stub.catchUp(BETA, 1_000_000);
    expect(rest.done).toBe(true);
    const n = await d1Count(BETA);
    expect(first.rows + rest.rows).toBe(n);
    expect(await stub.catchUp(BETA)).toMatchObject({ rows: 0, notes: 0 });
    const stats = await stub.stats();
    expect(stats.rows).toBe(n);
    console.log(`company log: ${stats.rows} rows, ${stats.bytes} bytes (${Math.round(stats.bytes / stats.rows)} per row with indexes, tallies and names)`);
  });

  it("belongs to one company: another company's calls are refused and its rows never appear", async () => {
    const stub = companyLogStub(logEnv, BETA);
    await stub.catchUp(BETA);
    const before = (await stub.stats()).rows;
    expect(await failure(stub.catchUp(3))).toMatch(/belongs to company 4/);
    expect(await failure(stub.query(3, { sql: "select 1", params: [], method: "all" }))).toMatch(/belongs to company 4/);
    const other = await stub.query(BETA, { sql: "select count(*) from activity_logs where company_id <> ?", params: [BETA], method: "get" });
    expect(other).toEqual([0]);
    expect(await failure(stub.query(BETA, { sql: "delete from activity_logs", params: [], method: "run" }))).toMatch(/read statements only/);
    expect(await failure(stub.query(BETA, { sql: "select 1; delete from activity_logs", params: [], method: "all" }))).toMatch(/read statements only/);
    expect((await stub.stats()).rows).toBe(before);
  });

  it("shows a device's new name after a rename, and a note added a moment ago", async () => {
    const device = refs.devices[0];
    await db().update(schema.devices).set({ fullName: "Renamed Front Door" }).where(eq(schema.devices.id, device));
    const page = await listActivity(companyLog(BETA), beta, { type: "Device", id: device, pageSize: 1 }, core);
    expect(page.rows[0].targetDevice?.fullName).toBe("Renamed Front Door");
    const [row] = await db().select({ id: schema.activityLogs.id }).from(schema.activityLogs).where(eq(schema.activityLogs.companyId, BETA)).limit(1);
    await db().insert(schema.activityNotes).values({ companyId: BETA, activityId: row.id, userId: refs.users[0], note: "checked the door", createdAt: T0 });
    const notes = await companyLog(BETA).select({ note: schema.activityNotes.note }).from(schema.activityNotes).where(eq(schema.activityNotes.activityId, row.id));
    expect(notes).toEqual([{ note: "checked the door" }]);
    // An activity the catalogue gained after the store copied it (a later migration) still shows.
    await env.DB.prepare("INSERT INTO activity_types (id, name, type) VALUES (9001, 'Added Later', 'Device')").run();
    await db().insert(schema.activityLogs).values({ companyId: BETA, activityTypeId: 9001, operationType: "Device", summary: "new kind", activityTimestamp: T0 });
    const added = await listActivity(companyLog(BETA), beta, { additionalFilter: "Added Later" }, core);
    expect(added.rows.map((r) => [r.activityName, r.summary])).toEqual([["Added Later", "new kind"]]);
  });
});

describe("D1's outbox drains into the store", () => {
  /** ACME rows straight into D1, as writers put them there; some carry event ids. */
  const backlog = async (rows: number, from: number) =>
    env.DB.prepare(
      `with recursive c(i) as (select 0 union all select i + 1 from c where i + 1 < ?1)
       insert into activity_logs (company_id, event_id, activity_type_id, operation_type, summary, activity_timestamp)
       select ?2, case when i % 3 = 0 then 'drain/' || (?5 + i) end, ?3, 'Device', 'backlog ' || (?5 + i), ?4 + i * 60000 from c`,
    )
      .bind(rows, ACME, refs.types[0], T0, from)
      .run();

  it("deletes from D1 what the store holds, in steps that can stop anywhere", async () => {
    await backlog(7_200, 0);
    const acme = { ...beta, company: { ...beta.company, id: ACME } };
    // The backlog's five days, apart from the demo's recent rows.
    const filter = { filterFromDate: isoDay(T0), filterToDate: isoDay(T0 + 6 * DAY), tz: "UTC", pageSize: 25, page: 100 };
    const stub = companyLogStub(logEnv, ACME);
    // ACME's demo rows and the backlog, none copied yet.
    const inD1 = await d1Count(ACME);
    const first = await stub.drain(ACME, 1_000);
    expect(first).toMatchObject({ rows: 1_000, deleted: 1_000, done: false });
    expect(await d1Count(ACME)).toBe(inD1 - 1_000);
    // A read copies the rest, as a drain stopped after copying (a killed Worker) leaves it; the next drain
    // deletes what it holds, and a third finds nothing.
    const before = await listActivity(companyLog(ACME), acme, filter, core);
    expect(before.total).toBe(7_200);
    expect(await stub.drain(ACME)).toMatchObject({ rows: 0, deleted: inD1 - 1_000, done: true });
    expect(await d1Count(ACME)).toBe(0);
    expect(await stub.drain(ACME)).toMatchObject({ rows: 0, deleted: 0 });
    expect((await stub.stats()).rows).toBe(inD1);
    expect(await listActivity(companyLog(ACME), acme, filter, core)).toEqual(before);
    // Rows written after a drain are copied and drained like the first ones; ids go on from D1's sequence.
    await backlog(300, 7_200);
    expect((await drainActivityOutbox(logEnv)).deleted).toBeGreaterThanOrEqual(300);
    expect(await d1Count(ACME)).toBe(0);
    expect((await listActivity(companyLog(ACME), acme, filter, core)).total).toBe(7_500);
    const [{ n }] = await companyLog(ACME)
      .select({ n: sql<number>`count(distinct ${schema.activityLogs.summary})` })
      .from(schema.activityLogs)
      .where(sql`${schema.activityLogs.summary} like 'backlog %'`);
    expect(n).toBe(7_500);
  });

  it("a company whose drain fails holds up no other: the sweep drains the rest, then fails naming it", async () => {
    // A store claimed by another company refuses every call for its own: company 9999's outbox rows cannot drain.
    const BROKEN = 9_999;
    expect(await failure(companyLogStub(logEnv, BROKEN).catchUp(BETA))).toBe("no error");
    await env.DB.prepare("INSERT INTO activity_logs (company_id, activity_type_id, operation_type, summary, activity_timestamp) VALUES (?, ?, 'Admin', 'stuck', ?)")
      .bind(BROKEN, refs.types[0], T0)
      .run();
    await backlog(50, 20_000);
    const sweep = await failure(drainActivityOutbox(logEnv));
    expect(await d1Count(ACME)).toBe(0);
    expect(sweep).toBe(`activity outbox: the drain of companies ${BROKEN} failed`);
    expect(await d1Count(BROKEN)).toBe(1);
    await env.DB.prepare("DELETE FROM activity_logs WHERE company_id = ?").bind(BROKEN).run();
  });

  it("writes gateway events to the store alone, once by event id", async () => {
    const [device] = await db().select({ id: schema.devices.id }).from(schema.devices).where(eq(schema.devices.companyId, ACME)).limit(1);
    const batch = [{ id: `${device.id}/again-1`, deviceId: String(device.id), type: "door.opened", at: T0, data: {} }];
    const [d1Before, d1Max] = [await d1Count(ACME), await maxId()];
    expect(await ingestEvents(logEnv, db(), batch, workerNow())).toMatchObject({ accepted: 1, duplicates: 0 });
    expect(await ingestEvents(logEnv, db(), batch, workerNow())).toMatchObject({ accepted: 0, duplicates: 1 });
    // D1 neither holds the event nor spent an id on it.
    expect([await d1Count(ACME), await maxId()]).toEqual([d1Before, d1Max]);
    const stored = await companyLog(ACME).select({ id: schema.activityLogs.id }).from(schema.activityLogs).where(eq(schema.activityLogs.eventId, batch[0].id));
    expect(stored).toHaveLength(1);
    expect(stored[0].id).toBeGreaterThan(STORE_ID_BASE);
  });

  it("takes rows of its own company only, and a bounded number per call", async () => {
    const row = {
      company_id: ACME,
      event_id: "elsewhere-1",
      activity_type_id: refs.types[0],
      operation_type: "Device",
      created_by_user_id: null,
      target_user_id: null,
      target_device_id: null,
      target_device_group_id: null,
      summary: "not yours",
      details_json: "{}",
      gps_location: null,
      activity_timestamp: T0,
      created_at: T0,
    };
    const store = companyLogStub(logEnv, BETA);
    const before = (await store.stats()).rows;
    expect(await failure(store.ingest(BETA, [row]))).toMatch(/rows of company 4 only/);
    expect(await failure(store.ingest(ACME, [row]))).toMatch(/belongs to company 4/);
    expect(
      await failure(
        store.ingest(
          BETA,
          Array.from({ length: INGEST_LIMIT + 1 }, () => ({ ...row, company_id: BETA })),
        ),
      ),
    ).toMatch(/At most 1000 rows/);
    expect((await store.stats()).rows).toBe(before);
  });
});

/** Rows into `target` by column list, a few per statement (D1 binds at most 100 values). */
async function insertRows(target: D1Database, table: string, columns: readonly string[], rows: unknown[][]) {
  const per = Math.floor(100 / columns.length);
  const statements = [];
  for (let i = 0; i < rows.length; i += per) {
    const part = rows.slice(i, i + per);
    statements.push(
      target.prepare(`INSERT OR REPLACE INTO ${table} (${columns.join(", ")}) VALUES ${part.map(() => `(${columns.map(() => "?").join(", ")})`).join(", ")}`).bind(...part.flat()),
    );
  }
  for (let i = 0; i < statements.length; i += 50) await target.batch(statements.slice(i, i + 50));
}

/**
 * REFERENCE_DB as the console's D1 was before the outbox (migrations up to 0023: the single table with its
 * nine indexes and tally triggers), holding BETA's log as the store holds it and today's names.
 */
async function buildReference() {
  const migrations = (env as unknown as { TEST_MIGRATIONS: D1Migration[] }).TEST_MIGRATIONS.filter((m) => m.name < "0024" || m.name >= "0026");
  await applyD1Migrations(REFERENCE_DB, migrations);
  await seedDemo(reference(), { now: seedNow() });
  await REFERENCE_DB.batch([REFERENCE_DB.prepare("DELETE FROM activity_logs"), REFERENCE_DB.prepare("DELETE FROM activity_notes")]);
  const store = companyLogStub(logEnv, BETA);
  // The store's upkeep settled first: nothing it does later today changes what the store holds.
  while ((await store.upkeep(BETA)).more);
  const rows = (await store.query(BETA, { sql: `SELECT ${LOG_COLUMNS.join(", ")} FROM activity_logs ORDER BY id`, params: [], method: "values" })) as unknown[][];
  await insertRows(REFERENCE_DB, "activity_logs", LOG_COLUMNS, rows);
  const copy = async (table: string, columns: readonly string[]) =>
    insertRows(REFERENCE_DB, table, columns, (await env.DB.prepare(`SELECT ${columns.join(", ")} FROM ${table}`).raw()) as unknown[][]);
  await copy("activity_notes", NOTE_COLUMNS);
  await copy("activity_types", TYPE_COLUMNS);
  for (const [table, columns] of Object.entries(NAME_COLUMNS)) {
    const rows = (await env.DB.prepare(`SELECT ${columns.join(", ")} FROM ${table}`).raw()) as unknown[][];
    for (const r of rows)
      await REFERENCE_DB.prepare(
        `UPDATE ${table} SET ${columns
          .slice(1)
          .map((c, i) => `${c} = ?${i + 2}`)
          .join(", ")} WHERE id = ?1`,
      )
        .bind(...r)
        .run();
  }
}

describe("the store and the old single table agree", () => {
  it("gives identical pages, totals and reports for random filters, sorts and pages", async () => {
    await buildReference();
    const old = reference();
    const next = random(47);
    const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)];
    const read = async (filter: Record<string, unknown>) => {
      const [a, b] = [await listActivity(old, beta, filter, core), await listActivity(companyLog(BETA), beta, filter, core)];
      return { a, b };
    };
    for (let i = 0; i < 40; i++) {
      const filter: Record<string, unknown> = {
        sort: `${next() < 0.5 ? "-" : ""}${pick(ACTIVITY_SORTS)}`,
        pageSize: pick([1, 25, 100]),
        tz: pick(["UTC", "Europe/Madrid", "America/New_York"]),
      };
      if (next() < 0.4) filter.filterOperationType = pick(["Sentinel", "App", "Device", "Admin"]);
      if (next() < 0.4)
        Object.assign(
          filter,
          pick([
            { type: "User", id: pick(refs.users) },
            { type: "Device", id: pick(refs.devices) },
            { type: "Device Group", id: pick(refs.groups) },
            { type: "Triggered By", id: pick(refs.users) },
          ]),
        );
      if (next() < 0.4) Object.assign(filter, { filterFromDate: isoDay(T0 + 6 * DAY), filterToDate: isoDay(T0 + pick([14, 40]) * DAY) });
      if (next() < 0.3) Object.assign(filter, { filterFromTime: "22:00", filterToTime: "06:00" });
      const first = await read(filter);
      expect(first.b.total, JSON.stringify(filter)).toBe(first.a.total);
      const pages = Math.ceil(first.a.total / (filter.pageSize as number));
      for (const page of [0, Math.floor(pages / 2), Math.max(0, pages - 1)]) {
        const { a, b } = await read({ ...filter, page });
        expect(b, JSON.stringify({ ...filter, page })).toEqual(a);
      }
      if (i % 8 === 0) {
        expect(await activityReport(companyLog(BETA), beta, filter, core)).toBe(await activityReport(old, beta, filter, core));
        const [x, y] = [
          await activityReportStream(async () => [{ db: old }], beta, filter, core),
          await activityReportStream(async () => [{ db: companyLog(BETA) }], beta, filter, core),
        ];
        expect(await new Response(y).text()).toBe(await new Response(x).text());
      }
    }
  });
});

describe("the operators' backfill", () => {
  it("is the platform root's alone, resumes from where it stopped, and moves every company's log whole", async () => {
    // Every row each company has now, wherever it is; the console's own drains may run under this test.
    const companies = (await env.DB.prepare("SELECT id FROM companies ORDER BY id").all<{ id: number }>()).results.map((r) => r.id);
    const idsOf = async (companyId: number) =>
      new Set(((await companyLogStub(logEnv, companyId).query(companyId, { sql: "SELECT id FROM activity_logs", params: [], method: "values" })) as number[][]).map(([id]) => id));
    const before = new Map(await Promise.all(companies.map(async (id) => [id, await idsOf(id)] as const)));
    const call = (token: string, body: Record<string, unknown>) => api(token, "POST", "/api/admin/platform/backfillActivityLogs", body);
    expect((await call(await login("acme"), {})).status).toBe(403);
    const root = await login("root");
    expect((await call(root, { companies: 0 })).status).toBe(400);
    // One company a step: each step names where the next starts.
    const first = await call(root, { companies: 1 });
    expect(first.status).toBe(200);
    expect(first.body.payload.companies).toHaveLength(1);
    let next: number | null = first.body.payload.next;
    expect(next).toBe(first.body.payload.companies[0].companyId);
    while (next !== null) next = (await call(root, { afterCompanyId: next, companies: 3 })).body.payload.next;
    const left = new Set(((await env.DB.prepare("SELECT id FROM activity_logs").raw()) as number[][]).map(([id]) => id));
    for (const [companyId, ids] of before) {
      const now = await idsOf(companyId);
      for (const id of ids) {
        expect(now.has(id), `company ${companyId} row ${id} in its store`).toBe(true);
        expect(left.has(id), `company ${companyId} row ${id} drained from D1`).toBe(false);
      }
    }
    // Run again: nothing left to copy of what was there.
    const again = await call(root, { companies: 100 });
    expect(again.body.payload.companies.every((c: { done: boolean }) => c.done)).toBe(true);
    expect(again.body.payload.next).toBeNull();
  });
});

describe("erasing one person's activity (GDPR)", () => {
  it("removes every entry naming them, in the store and D1, with the notes, and records only that it happened", async () => {
    const STAFF = 6;
    const OTHER = 8;
    const [acmeToken, auditor, betaToken] = [await login("acme"), await login("auditor"), await login("beta")];
    const l = schema.activityLogs;
    const t0 = T0 + 50 * DAY;
    // Entries naming STAFF as target and as actor (D1's outbox), and one naming OTHER; a gateway event for STAFF (the store).
    const [first] = await db()
      .insert(l)
      .values([
        { companyId: ACME, activityTypeId: refs.types[0], operationType: "Admin", createdByUserId: 3, targetUserId: STAFF, summary: "Staff Person's key", activityTimestamp: t0 },
        { companyId: ACME, activityTypeId: refs.types[0], operationType: "App", createdByUserId: STAFF, summary: "Staff Person opened", activityTimestamp: t0 + 1 },
        { companyId: ACME, activityTypeId: refs.types[0], operationType: "Admin", createdByUserId: 3, targetUserId: OTHER, summary: "someone else", activityTimestamp: t0 + 2 },
      ])
      .returning({ id: l.id });
    await db().insert(schema.activityNotes).values({ companyId: ACME, activityId: first.id, userId: 3, note: "about Staff Person", createdAt: t0 });
    const [device] = await db().select({ id: schema.devices.id }).from(schema.devices).where(eq(schema.devices.companyId, ACME)).limit(1);
    await ingestEvents(
      logEnv,
      db(),
      [{ id: `${device.id}/erase-1`, deviceId: String(device.id), type: "access.granted", at: t0 + 3, data: { userId: String(STAFF) } }],
      workerNow(),
    );
    const naming = (userId: number) =>
      companyLog(ACME)
        .select({ id: l.id })
        .from(l)
        .where(sql`${l.createdByUserId} = ${userId} or ${l.targetUserId} = ${userId}`);
    const before = (await naming(STAFF)).length;
    expect(before).toBeGreaterThanOrEqual(3);
    const others = (await naming(OTHER)).length;

    const erase = (token: string, userId: number) => api(token, "POST", "/api/admin/user/eraseUserActivity", { userId });
    expect((await erase(auditor, STAFF)).status).toBe(403);
    expect((await erase(betaToken, STAFF)).status).toBe(404);
    expect((await erase(acmeToken, 3)).status).toBe(422);
    const done = await erase(acmeToken, STAFF);
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body).toMatchObject({ message: "Activity erased", payload: { erased: before } });

    expect(await naming(STAFF)).toEqual([]);
    expect((await naming(OTHER)).length).toBe(others);
    const inD1 = await env.DB.prepare("SELECT count(*) AS n FROM activity_logs WHERE created_by_user_id = ?1 OR target_user_id = ?1").bind(STAFF).first<{ n: number }>();
    expect(inD1!.n).toBe(0);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM activity_notes WHERE activity_id = ?").bind(first.id).first()).toEqual({ n: 0 });
    // The list's totals follow (the tallies), and a filter by the person finds nothing.
    const acme = { ...beta, company: { ...beta.company, id: ACME } };
    const [{ n: rows }] = await companyLog(ACME)
      .select({ n: sql<number>`count(*)` })
      .from(l);
    expect((await listActivity(companyLog(ACME), acme, {}, core)).total).toBe(rows);
    expect((await listActivity(companyLog(ACME), acme, { type: "User", id: STAFF }, core)).total).toBe(0);
    // The record of the erasure names who asked and how many entries went, nothing that was erased.
    const [record] = await companyLog(ACME)
      .select({ createdBy: l.createdByUserId, target: l.targetUserId, summary: l.summary, details: l.detailsJson })
      .from(l)
      .innerJoin(schema.activityTypes, eq(schema.activityTypes.id, l.activityTypeId))
      .where(eq(schema.activityTypes.name, "User Activity Erased"));
    expect(record).toEqual({
      createdBy: 3,
      target: null,
      summary: `Activity of user #${STAFF} erased: ${before} entries`,
      details: JSON.stringify({ userId: STAFF, entries: before }),
    });
    expect(JSON.stringify(record)).not.toMatch(/Staff Person/);
    // Asked again: nothing left to erase.
    expect((await erase(acmeToken, STAFF)).body.payload).toEqual({ erased: 0 });
  });
});
