/**
 * Each company's activity log in its own store (docs/decisions/0047-activity-log-per-company.md): the console's
 * Durable Object follows D1 exactly once, keeps to one company, shows today's names, and answers the activity
 * service's pages, totals and reports exactly as D1 does (a differential over random filters, sorts and pages).
 */
import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import coreModule from "~core/core.wasm";
import { createCore } from "~core";
import { activityReport, activityReportStream, listActivity } from "~/services/activity.server";
import { ACTIVITY_SORTS } from "~/schemas/activity";
import { CATCH_UP_LIMIT } from "~/durable/company-log";
import { companyLogStub, type CompanyLogEnv } from "~/utils/company-log.server";
import { authFromToken, type Auth } from "~/utils/auth-guards.server";
import { api, companyLog, db, login, schema, workerNow } from "./helpers";

const BETA = 4;
const ROWS = 3_000;
const T0 = Date.UTC(2003, 0, 1);
const logEnv = env as unknown as CompanyLogEnv;
const core = createCore(coreModule);

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

beforeAll(async () => {
  beta = (await authFromToken(db(), env as never, await login("beta"), workerNow()))!;
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
    activityTimestamp: T0 + Math.floor(i - (i % 10 === 1 ? 1 : 0)) * 3_600_000,
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
    const [{ n }] = await env.DB.prepare("SELECT count(*) AS n FROM activity_logs WHERE company_id = ?")
      .bind(BETA)
      .raw<[number]>()
      .then((r) => r.map(([n]) => ({ n })));
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
    expect(other).toMatchObject({ rows: [0] });
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
  it("answers from D1 while its first copy is more than one read may wait for", async () => {
    const ACME = 3;
    // More than two reads' worth: a first statement finds the store behind, and so does the next.
    const rows = 2 * CATCH_UP_LIMIT + 600;
    await env.DB.prepare(
      `with recursive c(i) as (select 0 union all select i + 1 from c where i + 1 < ?1)
       insert into activity_logs (company_id, activity_type_id, operation_type, summary, activity_timestamp)
       select ?2, ?3, 'Device', 'backlog ' || i, ?4 + i * 60000 from c`,
    )
      .bind(rows, ACME, refs.types[0], T0)
      .run();
    const acme = { ...beta, company: { ...beta.company, id: ACME } };
    const all = (await env.DB.prepare("SELECT count(*) AS n FROM activity_logs WHERE company_id = ?").bind(ACME).first<{ n: number }>())!.n;
    const filter = { filterFromDate: "2003-01-01", filterToDate: "2003-12-31", tz: "UTC", pageSize: 10, page: 300 };
    const fromD1 = await listActivity(db(), acme, filter, core);
    expect(fromD1.total).toBe(rows);
    const stub = companyLogStub(logEnv, ACME);
    expect(await stub.query(ACME, { sql: "select count(*) from activity_logs", params: [], method: "get" })).toEqual({ behind: true });
    expect((await stub.stats()).rows).toBe(CATCH_UP_LIMIT);
    // The page's count from D1 (the store still behind after a second read's worth), its rows from the
    // store (caught up on the way): the same answer.
    expect(await listActivity(companyLog(ACME), acme, filter, core)).toEqual(fromD1);
    expect((await stub.stats()).rows).toBe(all);
    expect(await listActivity(companyLog(ACME), acme, filter, core)).toEqual(fromD1);
  });
});

describe("the store and D1 agree", () => {
  it("gives identical pages, totals and reports for random filters, sorts and pages", async () => {
    const next = random(47);
    const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)];
    const read = async (filter: Record<string, unknown>) => {
      const [a, b] = [await listActivity(db(), beta, filter, core), await listActivity(companyLog(BETA), beta, filter, core)];
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
      if (next() < 0.4) Object.assign(filter, { filterFromDate: "2003-01-20", filterToDate: pick(["2003-02-10", "2003-04-30"]) });
      if (next() < 0.3) Object.assign(filter, { filterFromTime: "22:00", filterToTime: "06:00" });
      const first = await read(filter);
      expect(first.b.total, JSON.stringify(filter)).toBe(first.a.total);
      const pages = Math.ceil(first.a.total / (filter.pageSize as number));
      for (const page of [0, Math.floor(pages / 2), Math.max(0, pages - 1)]) {
        const { a, b } = await read({ ...filter, page });
        expect(b, JSON.stringify({ ...filter, page })).toEqual(a);
      }
      if (i % 8 === 0) {
        expect(await activityReport(companyLog(BETA), beta, filter, core)).toBe(await activityReport(db(), beta, filter, core));
        const [x, y] = [await activityReportStream(db(), beta, filter, core), await activityReportStream(companyLog(BETA), beta, filter, core)];
        expect(await new Response(y).text()).toBe(await new Response(x).text());
      }
    }
  });
});

describe("the operators' backfill", () => {
  it("is the platform root's alone, resumes from where it stopped, and leaves every company's store whole", async () => {
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
    const { results } = await env.DB.prepare("SELECT c.id AS id, (SELECT count(*) FROM activity_logs l WHERE l.company_id = c.id) AS n FROM companies c").all<{
      id: number;
      n: number;
    }>();
    for (const { id, n } of results) expect((await companyLogStub(logEnv, id).stats()).rows, `company ${id}`).toBe(n);
    // Run again: nothing left to copy.
    const again = await call(root, { companies: 100 });
    expect(again.body.payload.companies.every((c: { copied: number; done: boolean }) => c.copied === 0 && c.done)).toBe(true);
    expect(again.body.payload.next).toBeNull();
  });
});
