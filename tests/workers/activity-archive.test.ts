/**
 * The hot window, the archive and retention (docs/decisions/0049-activity-hot-window-archive.md): the store's
 * upkeep archives every closed day to R2 and drops the days past the company's hot window; the pages of a
 * date range and the streamed CSV read the archive and give what they gave before; a late event for a
 * dropped day joins its day's object once; retention deletes or anonymises; erasure reaches the archive.
 * Each step runs the upkeep itself with the instant it runs as, until it has nothing left to do.
 */
import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import coreModule from "~core/core.wasm";
import { createCore } from "~core";
import { dayKey, readDay } from "~/durable/company-log-archive";
import type { IngestRow } from "~/durable/company-log-schema";
import { activityLog, activityReportStream, listActivity, reportSource } from "~/services/activity.server";
import { authFromToken, type Auth } from "~/utils/auth-guards.server";
import { companyLogStub, type CompanyLogEnv } from "~/utils/company-log.server";
import { newSession } from "~/utils/session.server";
import { api, db, login, schema } from "./helpers";
import { isoDay } from "../../db/seed/clock";

const ACME = 3;
const BETA = 4;
const DAY = 86_400_000;
const logEnv = env as unknown as CompanyLogEnv;
const bucket = (env as unknown as { ACTIVITY_ARCHIVE: R2Bucket }).ACTIVITY_ARCHIVE;
const core = createCore(coreModule);

let now: number;
let today: number;
let refs: { users: number[]; devices: number[]; type: number };

async function adminOf(companyId: number, email: string): Promise<Auth> {
  const [user] = await db().select({ id: schema.users.id }).from(schema.users).where(eq(schema.users.email, email));
  const { token, values } = await newSession({ userId: user.id, companyId, kind: "api", request: new Request("https://console.test"), now });
  await db().insert(schema.sessions).values(values);
  return (await authFromToken(db(), env as never, token, now))!;
}

const store = (companyId: number) => companyLogStub(logEnv, companyId);
async function settle(companyId: number, at = now) {
  while ((await store(companyId).upkeep(companyId, at)).more);
}
const setPolicy = (companyId: number, hotDays: number, retentionDays: number | null, action = "delete") =>
  env.DB.prepare("UPDATE company_settings SET activity_hot_days = ?, activity_retention_days = ?, activity_retention_action = ? WHERE company_id = ?")
    .bind(hotDays, retentionDays, action, companyId)
    .run();

/** `n` events on day `today - daysAgo`, one an hour from 08:00, naming people and doors in turn. */
function events(companyId: number, daysAgo: number, n: number, tag: string): IngestRow[] {
  return Array.from({ length: n }, (_, i) => ({
    company_id: companyId,
    event_id: `${tag}-${daysAgo}-${i}`,
    activity_type_id: refs.type,
    operation_type: "Device",
    created_by_user_id: null,
    target_user_id: refs.users[i % refs.users.length],
    target_device_id: refs.devices[i % refs.devices.length],
    target_device_group_id: null,
    summary: `${tag} ${daysAgo}/${i}`,
    details_json: "{}",
    gps_location: i % 2 ? "40.4,-3.7" : null,
    activity_timestamp: (today - daysAgo) * DAY + (8 + i) * 3_600_000,
    created_at: now,
  }));
}

const csv = async (auth: Auth, filter: Record<string, unknown> = {}) => new Response(await activityReportStream(reportSource(logEnv, auth), auth, filter, core)).text();
const page = async (auth: Auth, filter: Record<string, unknown>) => listActivity((await activityLog(logEnv, auth, filter, now)).db, auth, filter, core);
const heldDays = async (companyId: number) =>
  (
    (await store(companyId).query(companyId, { sql: "SELECT DISTINCT activity_timestamp / 86400000 FROM activity_logs ORDER BY 1", params: [], method: "values" })) as number[][]
  ).map((r) => r[0]);

let acme: Auth;
let beta: Auth;

beforeAll(async () => {
  now = Date.now();
  today = Math.floor(now / DAY);
  const [users, devices, [type]] = await Promise.all([
    db().select({ id: schema.users.id }).from(schema.users).where(eq(schema.users.companyId, ACME)),
    db().select({ id: schema.devices.id }).from(schema.devices).where(eq(schema.devices.companyId, ACME)),
    db().select({ id: schema.activityTypes.id }).from(schema.activityTypes).where(eq(schema.activityTypes.name, "Door Opened")),
  ]);
  refs = { users: users.map((u) => u.id), devices: devices.map((d) => d.id), type: type.id };
  acme = await adminOf(ACME, "admin@acme.example");
  beta = await adminOf(BETA, "admin@beta.example");
});

describe("the hot window and the archive", () => {
  const RANGE = () => ({ filterFromDate: isoDay((today - 160) * DAY), filterToDate: isoDay((today - 35) * DAY), tz: "UTC" });

  it("archives every closed day, drops the days past the window, and reads them back as before", async () => {
    expect((await setPolicy(ACME, 180, null)).meta.changes).toBe(1);
    for (const [daysAgo, n] of [
      [150, 7],
      [120, 5],
      [100, 9],
      [40, 6],
    ])
      expect(await store(ACME).ingest(ACME, events(ACME, daysAgo, n, "acme"))).toBe(n);
    await settle(ACME);
    // Within a 180-day window nothing has left the store, and every closed day is archived.
    expect(await store(ACME).archiveState(ACME)).toMatchObject({ hotFrom: null });
    for (const daysAgo of [150, 120, 100, 40]) expect((await readDay(bucket, ACME, today - daysAgo))?.rows.length).toBeGreaterThan(0);
    // 14:00-15:00 UTC: the seventh event of a day, which only the days 150 and 100 days ago have, so once
    // archived the views of the days between have no row of it to send.
    const AT_TWO = { filterFromTime: "14:00", filterToTime: "15:00", tz: "UTC" };
    const before = { csv: await csv(acme), csvAsc: await csv(acme, { sort: "date" }), atTwo: await csv(acme, AT_TWO), all: await page(acme, {}) };
    expect(before.atTwo).toContain("acme 150/6");
    expect(before.atTwo).toContain("acme 100/6");
    const perDay = (await store(ACME).query(ACME, {
      sql: "SELECT activity_timestamp / 86400000, count(*) FROM activity_logs GROUP BY 1",
      params: [],
      method: "values",
    })) as number[][];
    const ranged = [];
    for (const sort of ["-date", "device", "-user", "activity"]) for (const p of [0, 1, 3]) ranged.push(await page(acme, { ...RANGE(), sort, page: p, pageSize: 4 }));

    await setPolicy(ACME, 30, null);
    await settle(ACME);
    // The store begins the day after the newest day it dropped: 40 days ago at least, 31 at most.
    const { hotFrom } = (await store(ACME).archiveState(ACME)) as { hotFrom: number };
    expect(hotFrom).toBeGreaterThanOrEqual((today - 39) * DAY);
    expect(hotFrom).toBeLessThanOrEqual((today - 30) * DAY);
    expect((await heldDays(ACME)).filter((d) => d < hotFrom / DAY)).toEqual([]);
    expect(await readDay(bucket, ACME, today - 150)).toMatchObject({ rows: expect.arrayContaining([expect.arrayContaining(["acme-150-0"])]) });

    // Byte for byte the same report, newest first and oldest first; the same pages of a range before the window.
    expect(await csv(acme)).toBe(before.csv);
    expect(await csv(acme, { sort: "date" })).toBe(before.csvAsc);
    expect(await csv(acme, AT_TWO)).toBe(before.atTwo);
    let i = 0;
    for (const sort of ["-date", "device", "-user", "activity"])
      for (const p of [0, 1, 3]) expect(await page(acme, { ...RANGE(), sort, page: p, pageSize: 4 })).toEqual(ranged[i++]);
    // Without dates the list is the hot window, and says where it begins.
    expect((await page(acme, {})).total).toBe(perDay.filter(([day]) => day * DAY >= hotFrom).reduce((n, [, rows]) => n + rows, 0));
    const res = await api(await login("acme"), "POST", "/api/admin/user/activityLogs", { pageSize: 1 });
    expect(res.body.payload.archivedBefore).toBe(hotFrom);
  });

  it("takes a late event for a dropped day into that day's object once, and never shows another company's rows", async () => {
    const late = events(ACME, 120, 6, "acme");
    // The five sent before are the same events; the sixth is new.
    expect(await store(ACME).ingest(ACME, late)).toBe(6);
    await settle(ACME);
    const day = await readDay(bucket, ACME, today - 120);
    expect(day!.rows.map((r) => r[2]).sort()).toEqual(late.map((r) => r.event_id).sort());
    expect(await heldDays(ACME)).not.toContain(today - 120);
    expect((await page(acme, { ...RANGE(), additionalFilter: "Door Opened", pageSize: 100 })).rows.filter((r) => r.summary.startsWith("acme 120/"))).toHaveLength(6);
    // BETA's reads of the same dates see none of it.
    expect((await page(beta, { ...RANGE(), pageSize: 100 })).rows.filter((r) => r.summary.startsWith("acme"))).toEqual([]);
    expect((await csv(beta)).includes("acme ")).toBe(false);
  });

  it("erases a person from the archived days too", async () => {
    const person = refs.users.find((id) => id !== acme.user.id)!;
    const res = await api(await login("acme"), "POST", "/api/admin/user/eraseUserActivity", { userId: person });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    for (const daysAgo of [150, 120, 100]) {
      const day = await readDay(bucket, ACME, today - daysAgo);
      expect(day!.rows.length).toBeGreaterThan(0);
      expect(day!.rows.some((r) => r[5] === person || r[6] === person)).toBe(false);
    }
    expect((await page(acme, { ...RANGE(), type: "User", id: person })).total).toBe(0);
  });
});

describe("the store's alarm", () => {
  it("finishes an upkeep longer than one run by itself, woken by one late event", async () => {
    await setPolicy(BETA, 180, null);
    for (let daysAgo = 100; daysAgo > 50; daysAgo--) await store(BETA).ingest(BETA, events(BETA, daysAgo, 1, "alarm"));
    await settle(BETA);
    expect((await store(BETA).archiveState(BETA)).hotFrom).toBeNull();
    // 50 days to drop, more than one run does: the alarm goes on until they are all gone.
    await setPolicy(BETA, 7, null);
    await store(BETA).ingest(BETA, events(BETA, 1, 1, "alarm-wake"));
    let hotFrom: number | null = null;
    for (let i = 0; i < 100 && (hotFrom === null || hotFrom < (today - 50) * DAY); i++) {
      await new Promise((r) => setTimeout(r, 100));
      ({ hotFrom } = await store(BETA).archiveState(BETA));
    }
    expect(hotFrom).toBeGreaterThanOrEqual((today - 50) * DAY);
  });
});

describe("retention", () => {
  it("deletes entries past the policy, in the store and the archive", async () => {
    for (const daysAgo of [400, 200, 10]) await store(BETA).ingest(BETA, events(BETA, daysAgo, 3, "beta"));
    await setPolicy(BETA, 90, 365, "delete");
    await settle(BETA);
    expect(await bucket.head(dayKey(BETA, today - 400))).toBeNull();
    expect((await readDay(bucket, BETA, today - 200))!.rows).toHaveLength(3);
    const within = async (fromAgo: number, toAgo: number) =>
      (await page(beta, { filterFromDate: isoDay((today - fromAgo) * DAY), filterToDate: isoDay((today - toAgo) * DAY), tz: "UTC", pageSize: 100 })).rows
        .map((r) => r.summary)
        .filter((s) => s.startsWith("beta"))
        .sort();
    expect(await within(401, 399)).toEqual([]);
    expect(await within(201, 199)).toEqual(["beta 200/0", "beta 200/1", "beta 200/2"]);
    expect(await within(11, 9)).toEqual(["beta 10/0", "beta 10/1", "beta 10/2"]);
  });

  it("anonymises entries past the policy: who and where go, what and when stay, and the tallies follow", async () => {
    await setPolicy(BETA, 90, 5, "anonymise");
    await settle(BETA);
    const day = await readDay(bucket, BETA, today - 200);
    // created_by_user_id, target_user_id, summary, details_json, gps_location
    expect(day!.rows.map((r) => r.slice(5, 7).concat(r.slice(9, 12)))).toEqual(Array(3).fill([null, null, "", "{}", null]));
    const recent = (await page(beta, { filterFromDate: isoDay((today - 12) * DAY), filterToDate: isoDay((today - 8) * DAY), tz: "UTC", pageSize: 100 })).rows;
    expect(recent.length).toBeGreaterThanOrEqual(3);
    expect(recent.filter((r) => r.summary === "" && r.targetDevice && !r.targetUser && !r.gpsLocation)).toEqual(recent);
    // The hot window's tally of people equals a count of its rows.
    const tally = (await store(BETA).query(BETA, {
      sql: "SELECT coalesce(sum(n), 0) FROM activity_ref_counts WHERE kind = 'target' AND ref_id <> 0",
      params: [],
      method: "values",
    })) as number[][];
    const rows = (await store(BETA).query(BETA, { sql: "SELECT count(*) FROM activity_logs WHERE target_user_id IS NOT NULL", params: [], method: "values" })) as number[][];
    expect(tally[0][0]).toBe(rows[0][0]);
  });
});

describe("a report streamed while the upkeep drops days from the store", () => {
  const ROOT = 1;
  const RSL1 = 2;
  for (const [companyId, email, sort] of [
    [ROOT, "root@example.com", "-date"],
    [RSL1, "var@reseller.example", "date"],
  ] as const)
    it(`sends every row once, ${sort === "date" ? "oldest" : "newest"} first`, { timeout: 20_000 }, async () => {
      // 160 days of 16 events (2,560 rows: more than two of the stream's chunks), all in a 180-day window.
      expect((await setPolicy(companyId, 180, null)).meta.changes).toBe(1);
      const rows = Array.from({ length: 160 }, (_, d) => events(companyId, 175 - d, 16, "stream")).flat();
      for (let i = 0; i < rows.length; i += 1_000) await store(companyId).ingest(companyId, rows.slice(i, i + 1_000));
      await settle(companyId);
      const auth = await adminOf(companyId, email);
      const whole = await csv(auth, { sort });
      expect(whole.split("\r\n").filter((line) => line.includes("stream "))).toHaveLength(2_560);

      // The first chunks are read; then the window shrinks to 30 days and the upkeep drops the days before
      // it, rows the stream has not sent yet among them; then the stream is read to its end.
      const reader = (await activityReportStream(reportSource(logEnv, auth), auth, { sort }, core)).getReader();
      const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
      let text = "";
      for (let i = 0; i < 2; i++) text += decoder.decode((await reader.read()).value, { stream: true });
      await setPolicy(companyId, 30, null);
      await settle(companyId);
      expect((await store(companyId).archiveState(companyId)).hotFrom).toBeGreaterThanOrEqual((today - 31) * DAY);
      for (let r = await reader.read(); !r.done; r = await reader.read()) text += decoder.decode(r.value, { stream: true });
      expect(text.split("\r\n").filter((line) => line.includes("stream "))).toHaveLength(2_560);
      expect(text).toBe(whole);
    });
});
