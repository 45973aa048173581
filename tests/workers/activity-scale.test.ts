/**
 * The activity log at scale (issue 16): a page past the middle is read from the end and must match
 * reading from the start; the download streams every row by keyset across its chunks, ties included,
 * and stays inside the caller's company. The spec's JSON names of activityLogs are unchanged.
 */
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { STREAM_CHUNK } from "~/services/activity.server";
import { consoleWorker, api, db, login, ORIGIN, pageCookie, schema, workerNow } from "./helpers";
import { isoDay } from "../../db/seed/clock";

const ACME = 3;
const BETA = 4;
const HOST = new URL(ORIGIN).host;
const DAY = 86_400_000;
// 80 days ago is inside the hot window and before the demo's recent rows; BETA's 2,500 rows cross two
// chunk boundaries, and every fifth row shares its time with the next, so the keyset's id tie-break is exercised.
const T0 = (Math.floor(workerNow() / DAY) - 80) * DAY + 12 * 3_600_000;
const ROWS = 2 * STREAM_CHUNK + 500;
const RANGE = `filterFromDate=${isoDay(T0)}&filterToDate=${isoDay(T0 + 3 * DAY)}`;

let acme: string;

beforeAll(async () => {
  acme = await login("acme");
  const types = await db().select().from(schema.activityTypes);
  const typeId = (name: string) => types.find((t) => t.name === name)!.id;
  const rows = Array.from({ length: ROWS }, (_, i) => ({
    companyId: BETA,
    activityTypeId: typeId(i % 3 ? "Door Opened" : "Access Denied"),
    operationType: "Device" as const,
    summary: `row ${i}`,
    activityTimestamp: T0 + (i - (i % 5 === 1 ? 1 : 0)) * 60_000,
  }));
  for (let i = 0; i < rows.length; i += 8)
    await db()
      .insert(schema.activityLogs)
      .values(rows.slice(i, i + 8));
  // One ACME row in the same month: never part of BETA's download.
  await db()
    .insert(schema.activityLogs)
    .values({ companyId: ACME, activityTypeId: typeId("Door Opened"), operationType: "Device", summary: "acme row", activityTimestamp: T0 });
});

const list = (body: Record<string, unknown>) => api(acme, "POST", "/api/admin/user/activityLogs", body);
const idsOf = (r: { body: { payload: { rows: { id: number }[] } } }) => r.body.payload.rows.map((x) => x.id);

describe("activityLogs pages read from the end", () => {
  it("gives every page the rows reading from the start gives, for each sort, with the spec's names", async () => {
    const month = { filterFromDate: "2020-07-01", filterToDate: "2020-07-31", tz: "UTC" };
    for (const sort of ["-date", "date", "activity", "-activity", "trigger", "-trigger", "user", "-device"]) {
      const all = await list({ ...month, sort, pageSize: 100 });
      const total: number = all.body.payload.total;
      const paged: number[] = [];
      for (let page = 0; page * 7 < total; page++) paged.push(...idsOf(await list({ ...month, sort, pageSize: 7, page })));
      expect(paged, sort).toEqual(idsOf(all));
    }
    const last = await list({ ...month, pageSize: 1, page: 0, sort: "date" });
    expect(Object.keys(last.body.payload).sort()).toEqual(["archivedBefore", "page", "pageSize", "rows", "total", "tz"]);
    expect((await list({ ...month, pageSize: 5, page: 10_000 })).body.payload.rows).toEqual([]);
  });
});

describe("the streamed activity report", () => {
  it("streams every row of the filter once, newest first, across chunks and equal times, only the caller's company", async () => {
    const cookie = await pageCookie("beta");
    const res = await consoleWorker.fetch(`${ORIGIN}/resources/activity-report?${RANGE}`, { headers: { Host: HOST, Cookie: cookie } });
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    const lines = (await res.text())
      .replace(/^\uFEFF/, "")
      .split("\r\n")
      .slice(0, -1);
    expect(lines[0]).toBe("Date,Activity,Trigger,Triggered By,User,Device,Device Group,Summary,GPS Location");
    const summaries = lines.slice(1).map((l) => l.split(",")[7]);
    expect(summaries).toHaveLength(ROWS);
    expect(new Set(summaries).size).toBe(ROWS);
    expect(summaries).not.toContain("acme row");
    expect(summaries[0]).toBe(`row ${ROWS - 1}`);
    expect(summaries[ROWS - 1]).toBe("row 0");
  });

  it("streams oldest first when the grid is sorted by date ascending", async () => {
    const cookie = await pageCookie("beta");
    const res = await consoleWorker.fetch(`${ORIGIN}/resources/activity-report?${RANGE}&sort=date`, { headers: { Host: HOST, Cookie: cookie } });
    const summaries = (await res.text())
      .split("\r\n")
      .slice(1, -1)
      .map((l) => l.split(",")[7]);
    expect(summaries).toHaveLength(ROWS);
    expect(summaries.slice(0, 3)).toEqual(["row 0", "row 1", "row 2"]);
  });

  it("queries the next chunk only when the reader has taken the last one", async () => {
    // Five chunks in a month of their own. While the reader holds the first, the runtime may have
    // fetched the second and third (one in its queue, one being written); a row written older than
    // all of them then still belongs to the fifth, which a stream that had read ahead would miss.
    const rows = 4 * STREAM_CHUNK + 500;
    const t1 = T0 + 20 * DAY;
    const doorOpened = (await db().select().from(schema.activityTypes)).find((t) => t.name === "Door Opened")!.id;
    await env.DB.prepare(
      `with recursive c(i) as (select 0 union all select i + 1 from c where i + 1 < ?1)
       insert into activity_logs (company_id, activity_type_id, operation_type, summary, activity_timestamp)
       select ?2, ?3, 'Device', 'august ' || i, ?4 + i * 60000 from c`,
    )
      .bind(rows, BETA, doorOpened, t1)
      .run();
    const cookie = await pageCookie("beta");
    const res = await consoleWorker.fetch(`${ORIGIN}/resources/activity-report?filterFromDate=${isoDay(t1 - DAY)}&filterToDate=${isoDay(t1 + 5 * DAY)}`, {
      headers: { Host: HOST, Cookie: cookie },
    });
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = "";
    while (text.split("\r\n").length < 3) text += (await reader.read()).value;
    // Time for a stream that reads ahead to do so; one that waits for its reader stays put.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await db()
      .insert(schema.activityLogs)
      .values({ companyId: BETA, activityTypeId: doorOpened, operationType: "Device", summary: "written mid-download", activityTimestamp: t1 - 3_600_000 });
    for (let r = await reader.read(); !r.done; r = await reader.read()) text += r.value;
    const summaries = text
      .split("\r\n")
      .slice(1, -1)
      .map((l) => l.split(",")[7]);
    expect(summaries).toHaveLength(rows + 1);
    expect(summaries[0]).toBe(`august ${rows - 1}`);
    expect(summaries.at(-1)).toBe("written mid-download");
  });
});
