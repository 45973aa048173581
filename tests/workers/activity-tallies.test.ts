/**
 * The activity log's tallies (db/migrations/0017_activity_scale.sql, decision 0036): kept by triggers on
 * every insert, update and delete, they give the list's total and walk the name sorts. Checked against
 * the log itself: the tallies equal a GROUP BY of the rows, every filter's total equals a count, and an
 * unfiltered name sort pages exactly like sorting the joined rows, equal names and renames included.
 */
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { api, db, login, schema } from "./helpers";

const BETA = 4;
// 1998 is far from every other test's rows.
const T0 = Date.UTC(1998, 2, 1, 12);
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

beforeAll(async () => {
  beta = await login("beta");
  devices = (await all<{ id: number }>("select id from devices where company_id = ? order by id", BETA)).map((r) => r.id);
  users = (await all<{ id: number }>("select id from users where company_id = ? order by id", BETA)).map((r) => r.id);
  // Two devices with the same name: their rows stay together, ordered by device id.
  await env.DB.prepare("update devices set full_name = 'Same name' where id in (?, ?)").bind(devices[0], devices[1]).run();
  const types = await db().select().from(schema.activityTypes);
  const typeId = (name: string) => types.find((t) => t.name === name)!.id;
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
});

const tallies = () =>
  Promise.all([
    all("select company_id, operation_type, activity_type_id, n from activity_counts where n <> 0 order by 1, 2, 3"),
    all(`select company_id, operation_type, activity_type_id, count(*) n from activity_logs group by 1, 2, 3 order by 1, 2, 3`),
    all("select company_id, kind, ref_id, n from activity_ref_counts where n <> 0 order by 1, 2, 3"),
    all(
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
  it("equal the log after inserts, edits and deletes", async () => {
    let [counts, expectedCounts, refs, expectedRefs] = await tallies();
    expect(counts).toEqual(expectedCounts);
    expect(refs).toEqual(expectedRefs);
    await env.DB.prepare("update activity_logs set target_device_id = ?, operation_type = 'Sentinel' where summary = 'tally 5'").bind(devices[1]).run();
    await env.DB.prepare("delete from activity_logs where summary in ('tally 6', 'tally 7', 'tally 8')").run();
    [counts, expectedCounts, refs, expectedRefs] = await tallies();
    expect(counts).toEqual(expectedCounts);
    expect(refs).toEqual(expectedRefs);
  });

  it("give each filter's total without a time filter", async () => {
    const [{ n: everything }] = await all<{ n: number }>("select count(*) n from activity_logs where company_id = ?", BETA);
    expect((await list({ pageSize: 1 })).body.payload.total).toBe(everything);
    const [{ n: appDenied }] = await all<{ n: number }>(
      "select count(*) n from activity_logs l join activity_types t on t.id = l.activity_type_id where company_id = ? and operation_type = 'App' and t.name = 'Access Denied'",
      BETA,
    );
    expect(appDenied).toBeGreaterThan(0);
    expect((await list({ pageSize: 1, filterOperationType: "App", additionalFilter: "Access Denied" })).body.payload.total).toBe(appDenied);
    const [{ n: onDevice }] = await all<{ n: number }>("select count(*) n from activity_logs where company_id = ? and target_device_id = ?", BETA, devices[0]);
    expect((await list({ pageSize: 1, type: "Device", id: devices[0] })).body.payload.total).toBe(onDevice);
    const [{ n: byUserOnApp }] = await all<{ n: number }>(
      "select count(*) n from activity_logs where company_id = ? and created_by_user_id = ? and operation_type = 'App'",
      BETA,
      users[1],
    );
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

/** The order a name sort means, straight from the joined rows. */
async function sortedIds(key: keyof typeof SORTS, descending: boolean): Promise<number[]> {
  const dir = descending ? "desc" : "asc";
  const rows = await all<{ id: number }>(
    `select l.id from activity_logs l join activity_types t on t.id = l.activity_type_id
       left join users c on c.id = l.created_by_user_id left join users u on u.id = l.target_user_id
       left join devices d on d.id = l.target_device_id left join device_groups g on g.id = l.target_device_group_id
     where l.company_id = ? order by ${SORTS[key][0]} ${dir}, ${SORTS[key][1]} ${dir}, l.activity_timestamp desc, l.id desc`,
    BETA,
  );
  return rows.map((r) => r.id);
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
    expect(after).toEqual(await sortedIds("device", false));
    expect(after).not.toEqual(before);
  });
});
