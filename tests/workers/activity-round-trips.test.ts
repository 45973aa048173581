/**
 * What serving a page of the activity log costs in round trips (issue 16, "Scale": the fixed cost of a
 * signed-in page). The session with its user, company, role, modules and zone is one D1 query shared by
 * the shell's and the page's loaders; the log is the company's own store (decision 0047), where a page is
 * its count and one statement for its ids and rows (each store statement asks D1 once, in one batch,
 * whether anything is new). Counted by the test build's wrappers (server.ts, `X-D1-Round-Trips` and
 * `X-Log-Round-Trips`), so it holds on any machine.
 */
import { describe, expect, it } from "vitest";
import { isoDay } from "../../db/seed/clock";
import { consoleWorker, ORIGIN, pageCookie, seedNow } from "./helpers";

const HOST = new URL(ORIGIN).host;

const CASES: [string, string, number, number][] = [
  ["first page", "/activity", 1, 2],
  ["trigger filter", "/activity?filterOperationType=Device", 1, 2],
  ["activity filter", "/activity?additionalFilter=Access+Denied", 1, 2],
  // The demo's month of door traffic, inside the hot window.
  ["dates", `/activity?filterFromDate=${isoDay(seedNow(), -30)}&filterToDate=${isoDay(seedNow())}`, 1, 2],
  // The log's first and last times bound a daily window (one batch).
  ["daily times", "/activity?filterFromTime=08%3A00&filterToTime=09%3A00", 1, 3],
  // The count, the tallies in name order, then each name's range in one batch, then the rows.
  ["sort by user", "/activity?sort=user", 1, 4],
  // The filter chip's name, from D1's directory.
  ["one person", "/activity?id=3&type=User", 2, 2],
];

describe("D1 round trips of /activity", () => {
  it.each(CASES)("%s (%s) takes %i D1 and %i log round trips", async (_label, path, d1, log) => {
    // A fresh sign-in each time: a session seen more than 15 s ago is touched (one more write).
    const cookie = await pageCookie("acme");
    const res = await consoleWorker.fetch(`${ORIGIN}${path}`, { headers: { Host: HOST, Cookie: cookie } });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("<table");
    expect(Number(res.headers.get("X-D1-Round-Trips"))).toBe(d1);
    expect(Number(res.headers.get("X-Log-Round-Trips"))).toBe(log);
  });
});
