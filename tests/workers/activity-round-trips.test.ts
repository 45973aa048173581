/**
 * What serving a page of the activity log costs in D1 round trips (issue 16, "Scale": the fixed cost of a
 * signed-in page). The session with its user, company, role, modules and zone is one query shared by the
 * shell's and the page's loaders; a page is then its count and one statement for its ids and rows. Counted
 * by the test build's D1 wrapper (server.ts, `X-D1-Round-Trips`), so it holds on any machine.
 */
import { describe, expect, it } from "vitest";
import { consoleWorker, ORIGIN, pageCookie } from "./helpers";

const HOST = new URL(ORIGIN).host;

const CASES: [string, string, number][] = [
  ["first page", "/activity", 3],
  ["trigger filter", "/activity?filterOperationType=Device", 3],
  ["activity filter", "/activity?additionalFilter=Access+Denied", 3],
  ["dates", "/activity?filterFromDate=2026-01-01&filterToDate=2026-12-31", 3],
  // The log's first and last times bound a daily window (one batch).
  ["daily times", "/activity?filterFromTime=08%3A00&filterToTime=09%3A00", 4],
  // The tallies in name order, then each name's range in one batch, then the rows.
  ["sort by user", "/activity?sort=user", 5],
  // The filter chip's name.
  ["one person", "/activity?id=3&type=User", 4],
];

describe("D1 round trips of /activity", () => {
  it.each(CASES)("%s (%s) takes %i", async (_label, path, trips) => {
    // A fresh sign-in each time: a session seen more than 15 s ago is touched (one more write).
    const cookie = await pageCookie("acme");
    const res = await consoleWorker.fetch(`${ORIGIN}${path}`, { headers: { Host: HOST, Cookie: cookie } });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("<table");
    expect(Number(res.headers.get("X-D1-Round-Trips"))).toBe(trips);
  });
});
