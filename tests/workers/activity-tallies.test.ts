/**
 * The activity log's tallies (db/migrations/0017_activity_scale.sql, decision 0036), which now live in each
 * company's store (app/durable/company-log-schema.ts; D1's table is an outbox, decision 0048): kept by
 * triggers as the store copies rows in, they give the list's total and walk the name sorts. Checked
 * against BETA's store itself: the tallies equal a GROUP BY of its rows, also after more rows arrive;
 * every filter's total equals a count; and an unfiltered name sort pages exactly like sorting the joined
 * rows, equal names and renames included. The store's rows are copies nobody edits (it takes reads only),
 * so the tallies' update and delete paths that D1 had are not exercised here.
 */
import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { companyLogStub, type CompanyLogEnv } from "~/utils/company-log.server";
import { api, companyLog, db, login, schema, workerNow } from "./helpers";

const BETA = 4;
const DAY = 86_400_000;
// 85 days ago: inside the hot window, and apart from the demo's recent rows.
const T0 = (Math.floor(workerNow() / DAY) - 85) * DAY + 12 * 3_600_000;
const MISSING_DEVICE = 987_654;

let beta: string;
let devices: number[];
let users: number[];

const all = async <T>(query: string, ...binds: unknown[]) =>
  (
    await env.DB.prepare(query)
      .bind(...binds)
      .all<T>()
  ).results;
/** A read of BETA's store (which first copies what D1 holds), rows as arrays of values. */
const fromLog = async (sql: string, ...params: SqlStorageValue[]) =>
  (await companyLogStub(env as unknown as CompanyLogEnv, BETA).query(BETA, { sql, params, method: "all" })) as SqlStorageValue[][];
let typeId: (name: string) => number;

beforeAll(async () => {
  beta = await login("beta");
  devices = (await all<{ id: number }>("select id from devices where company_id = ? order by id", BETA)).map((r) => r.id);
  users = (await all<{ id: number }>("select id from users where company_id = ? order by id", BETA)).map((r) => r.id);
  // Two devices with the same name: their rows stay together, ordered by device id.
  await env.DB.prepare("update devices set full_name = 'Same name' where id in (?, ?)").bind(devices[0], devices[1]).run();
  const types = await db().select().from(schema.activityTypes);
  typeId = (name: string) => types.find((t) => t.name === name)!.id;
  const names = ["Door Opened", "Access Denied", "Unlocked With App", "Sensor 1 Open"];
  const rows = Array.from({ length: 240 }, (_, i) => ({
    companyId: BETA,
    activityTypeId: typeId(names[i % names.length]),
    operationType: (["Device", "App", "Admin"] as const)[i % 3],
    createdByUserId: i % 5 === 0 ? null : users[i % users.length],
    targetUserId: i % 7 === 0 ? null : users[(i * 3) % users.length],
    // Mostly one device, so a page lands deep inside its range and is read from its end; one row names a device that is gone.
    targetDeviceId: i === 17 ? MISSING_DEVICE : i % 6 === 0 ? null : i % 4 === 0 ? devices[1] : devices[0],
    targetDeviceGroupId: null,
    summary: `tally ${i}`,
    // Every fourth row shares its time with the one before, so the id breaks ties.
    activityTimestamp: T0 + (i - (i % 4 === 3 ? 1 : 0)) * 60_000,
  }));
  for (let i = 0; i < rows.length; i += 8)
    await db()
      .insert(schema.activityLogs)
      .values(rows.slice(i, i + 8));
  // The store's upkeep settled (it drops the demo's row older than the hot window), so no later run moves a tally.
  const store = companyLogStub(env as unknown as CompanyLogEnv, BETA);
  await store.catchUp(BETA);
  while ((await store.upkeep(BETA)).more);
});

const tallies = () =>
  Promise.all([
    fromLog("select company_id, operation_type, activity_type_id, n from activity_counts where n <> 0 order by 1, 2, 3"),
    fromLog(`select company_id, operation_type, activity_type_id, count(*) n from activity_logs group by 1, 2, 3 order by 1, 2, 3`),
    fromLog("select company_id, kind, ref_id, n from activity_ref_counts where n <> 0 order by 1, 2, 3"),
    fromLog(
      `select company_id, kind, ref_id, n from (
         select company_id, 'creator' kind, coalesce(created_by_user_id, 0) ref_id, count(*) n from activity_logs group by 1, 3
         union all select company_id, 'device', coalesce(target_device_id, 0), count(*) from activity_logs group by 1, 3
         union all select company_id, 'group', coalesce(target_device_group_id, 0), count(*) from activity_logs group by 1, 3
         union all select company_id, 'target', coalesce(target_user_id, 0), count(*) from activity_logs group by 1, 3)
       order by 1, 2, 3`,
    ),
  ]);

const list = (body: Record<string, unknown>) => api(beta, "POST", "/api/admin/user/activityLogs", body);

describe("activity tallies", () => {
  it("equal the log's rows, and still do after more rows are copied in", async () => {
    let [counts, expectedCounts, refs, expectedRefs] = await tallies();
    expect(counts.length).toBeGreaterThan(0);
    expect(counts).toEqual(expectedCounts);
    expect(refs).toEqual(expectedRefs);
    // Rows that reach the store in a later copy than the ones above: its triggers add them to the tallies it holds.
    await db()
      .insert(schema.activityLogs)
      .values([
        { companyId: BETA, activityTypeId: typeId("Door Opened"), operationType: "Device", targetDeviceId: devices[0], summary: "tally late 1", activityTimestamp: T0 },
        { companyId: BETA, activityTypeId: typeId("Door Opened"), operationType: "Sentinel", targetUserId: users[0], summary: "tally late 2", activityTimestamp: T0 },
      ]);
    [counts, expectedCounts, refs, expectedRefs] = await tallies();
    expect(counts).toEqual(expectedCounts);
    expect(refs).toEqual(expectedRefs);
  });

  it("give each filter's total without a time filter", async () => {
    const [[everything]] = await fromLog("select count(*) n from activity_logs where company_id = ?", BETA);
    expect((await list({ pageSize: 1 })).body.payload.total).toBe(everything);
    const [[appDenied]] = await fromLog(
      "select count(*) n from activity_logs l join activity_types t on t.id = l.activity_type_id where company_id = ? and operation_type = 'App' and t.name = 'Access Denied'",
      BETA,
    );
    expect(appDenied).toBeGreaterThan(0);
    expect((await list({ pageSize: 1, filterOperationType: "App", additionalFilter: "Access Denied" })).body.payload.total).toBe(appDenied);
    const [[onDevice]] = await fromLog("select count(*) n from activity_logs where company_id = ? and target_device_id = ?", BETA, devices[0]);
    expect((await list({ pageSize: 1, type: "Device", id: devices[0] })).body.payload.total).toBe(onDevice);
    const [[byUserOnApp]] = await fromLog("select count(*) n from activity_logs where company_id = ? and created_by_user_id = ? and operation_type = 'App'", BETA, users[1]);
    expect((await list({ pageSize: 1, type: "Triggered By", id: users[1], filterOperationType: "App" })).body.payload.total).toBe(byUserOnApp);
    expect((await list({ pageSize: 1, additionalFilter: "No such activity" })).body.payload.total).toBe(0);
  });
});

const SORTS = {
  activity: ["t.name", "l.activity_type_id"],
  triggeredBy: ["c.display_name", "l.created_by_user_id"],
  user: ["u.display_name", "l.target_user_id"],
  device: ["d.full_name", "l.target_device_id"],
  deviceGroup: ["g.full_name", "l.target_device_group_id"],
} as const;

/** The order a name sort means, straight from the store's joined rows (its copies of the names). */
async function sortedIds(key: keyof typeof SORTS, descending: boolean): Promise<number[]> {
  const dir = descending ? "desc" : "asc";
  const rows = await fromLog(
    `select l.id from activity_logs l join activity_types t on t.id = l.activity_type_id
       left join users c on c.id = l.created_by_user_id left join users u on u.id = l.target_user_id
       left join devices d on d.id = l.target_device_id left join device_groups g on g.id = l.target_device_group_id
     where l.company_id = ? order by ${SORTS[key][0]} ${dir}, ${SORTS[key][1]} ${dir}, l.activity_timestamp desc, l.id desc`,
    BETA,
  );
  return rows.map(([id]) => id as number);
}

async function pagedIds(sort: string, pageSize: number): Promise<number[]> {
  const ids: number[] = [];
  for (let page = 0; ; page++) {
    const r = await list({ sort, pageSize, page });
    expect(r.status).toBe(200);
    const rows: { id: number }[] = r.body.payload.rows;
    ids.push(...rows.map((x) => x.id));
    if (rows.length < pageSize) return ids;
  }
}

describe("unfiltered name sorts", () => {
  it("page exactly like sorting the joined rows, both ways, equal names kept together", async () => {
    for (const key of Object.keys(SORTS) as (keyof typeof SORTS)[]) {
      for (const descending of [false, true]) {
        const sort = `${descending ? "-" : ""}${key}`;
        expect(await pagedIds(sort, 37), sort).toEqual(await sortedIds(key, descending));
      }
    }
  });

  it("follow a rename at once, with nothing to rewrite", async () => {
    const before = await pagedIds("device", 100);
    await env.DB.prepare("update devices set full_name = 'AAA first' where id = ?").bind(devices[1]).run();
    const after = await pagedIds("device", 100);
    // The store has followed D1's rename, so sorting its joined rows is the order the new name means.
    const [renamed] = await companyLog(BETA).select({ fullName: schema.devices.fullName }).from(schema.devices).where(eq(schema.devices.id, devices[1]));
    expect(renamed.fullName).toBe("AAA first");
    expect(after).toEqual(await sortedIds("device", false));
    expect(after).not.toEqual(before);
  });
});
