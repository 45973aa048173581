/**
 * Alert schedules on the night the clocks go back, decided by the access-window core as the alert
 * engine decides them. The wall-clock rule (docs/ARCHITECTURE.md §5.2): an instant is inside when its
 * local time falls in the window, so both passes of a repeated local time are inside, and an all-day
 * schedule covers the whole 25-hour day.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createCore } from "~core";
import { alertWindow, type StoredSchedule } from "./alert-window";

const core = createCore(readFileSync(new URL("../../core-wasm/pkg/core.wasm", import.meta.url)));
const HOUR = 3_600_000;

/** A custom schedule on Sundays only, from `date` on, in `zone`; no times means all day. */
const sunday = (zoneName: string, date: string, times?: [string, string]): StoredSchedule => ({
  schedule: "custom",
  startDate: date,
  endDate: null,
  isNeverEnd: true,
  days: "0000001",
  isAllDay: !times,
  startTime: times?.[0] ?? null,
  endTime: times?.[1] ?? null,
  zoneName,
});

type Case = { zone: string; date: string; times?: [string, string]; inside: string[]; outside: string[]; open: [string, string][] };

/**
 * Madrid, Sunday 2026-10-25: 03:00 CEST (UTC+2) becomes 02:00 CET (UTC+1) at 01:00Z, so 02:00-03:00
 * happens twice. New York, Sunday 2026-11-01: 02:00 EDT (UTC-4) becomes 01:00 EST (UTC-5) at 06:00Z,
 * so 01:00-02:00 happens twice. `open` is every stretch the schedule holds that night, in UTC.
 */
const CASES: Case[] = [
  {
    zone: "Europe/Madrid",
    date: "2026-10-25",
    times: ["02:00", "03:00"],
    // 02:15 and 02:59 CEST, then 02:15 and 02:59 CET: the repeated hour is inside twice.
    inside: ["2026-10-25T00:00:00Z", "2026-10-25T00:15:00Z", "2026-10-25T00:59:59Z", "2026-10-25T01:00:00Z", "2026-10-25T01:15:00Z", "2026-10-25T01:59:59Z"],
    // 01:59 CEST before it; 03:00 CET after the second pass.
    outside: ["2026-10-24T23:59:59Z", "2026-10-25T02:00:00Z"],
    open: [["2026-10-25T00:00:00Z", "2026-10-25T02:00:00Z"]],
  },
  {
    zone: "Europe/Madrid",
    date: "2026-10-25",
    times: ["01:30", "02:30"],
    // 01:45 CEST (once), 02:15 CEST, and 02:15 CET in the repeated hour.
    inside: ["2026-10-24T23:30:00Z", "2026-10-24T23:45:00Z", "2026-10-25T00:15:00Z", "2026-10-25T01:00:00Z", "2026-10-25T01:15:00Z"],
    // 02:45 CEST and 02:45 CET: past 02:30 on both passes; 01:29 CEST before.
    outside: ["2026-10-24T23:29:59Z", "2026-10-25T00:30:00Z", "2026-10-25T00:45:00Z", "2026-10-25T01:30:00Z", "2026-10-25T01:45:00Z"],
    open: [
      ["2026-10-24T23:30:00Z", "2026-10-25T00:30:00Z"],
      ["2026-10-25T01:00:00Z", "2026-10-25T01:30:00Z"],
    ],
  },
  {
    zone: "Europe/Madrid",
    date: "2026-10-25",
    // The whole Sunday: 00:00 CEST to the next 00:00 CET, 25 hours.
    inside: ["2026-10-24T22:00:00Z", "2026-10-25T00:30:00Z", "2026-10-25T01:30:00Z", "2026-10-25T22:59:59Z"],
    outside: ["2026-10-24T21:59:59Z", "2026-10-25T23:00:00Z"],
    open: [["2026-10-24T22:00:00Z", "2026-10-25T23:00:00Z"]],
  },
  {
    zone: "America/New_York",
    date: "2026-11-01",
    times: ["02:00", "03:00"],
    // 02:00 happens once, in EST; the clock never shows 02:xx EDT that night.
    inside: ["2026-11-01T07:00:00Z", "2026-11-01T07:30:00Z", "2026-11-01T07:59:59Z"],
    // 01:30 EDT, 01:59 EDT (the last instant before the change), 01:30 EST, 03:00 EST.
    outside: ["2026-11-01T05:30:00Z", "2026-11-01T05:59:59Z", "2026-11-01T06:30:00Z", "2026-11-01T08:00:00Z"],
    open: [["2026-11-01T07:00:00Z", "2026-11-01T08:00:00Z"]],
  },
  {
    zone: "America/New_York",
    date: "2026-11-01",
    times: ["01:30", "02:30"],
    // 01:45 EDT, then 01:45 EST in the repeated hour, then 02:15 EST.
    inside: ["2026-11-01T05:30:00Z", "2026-11-01T05:45:00Z", "2026-11-01T06:30:00Z", "2026-11-01T06:45:00Z", "2026-11-01T07:15:00Z"],
    // 01:29 EDT, 01:00 and 01:15 EST (the repeated hour before 01:30), 02:30 EST.
    outside: ["2026-11-01T05:29:59Z", "2026-11-01T06:00:00Z", "2026-11-01T06:15:00Z", "2026-11-01T07:30:00Z"],
    open: [
      ["2026-11-01T05:30:00Z", "2026-11-01T06:00:00Z"],
      ["2026-11-01T06:30:00Z", "2026-11-01T07:30:00Z"],
    ],
  },
  {
    zone: "America/New_York",
    date: "2026-11-01",
    inside: ["2026-11-01T04:00:00Z", "2026-11-01T05:30:00Z", "2026-11-01T06:30:00Z", "2026-11-02T04:59:59Z"],
    outside: ["2026-11-01T03:59:59Z", "2026-11-02T05:00:00Z"],
    open: [["2026-11-01T04:00:00Z", "2026-11-02T05:00:00Z"]],
  },
];

describe("alert schedules when the clocks go back", () => {
  for (const c of CASES) {
    const name = `${c.zone} ${c.date} ${c.times ? c.times.join("-") : "all day"}`;
    const window = alertWindow(sunday(c.zone, c.date, c.times));

    it(`${name}: inside and outside at the instants the schedule says`, () => {
      for (const at of c.inside) expect(core.isOpen(window, Date.parse(at)), `${at} (${core.formatLocal(Date.parse(at), c.zone)})`).toBe(true);
      for (const at of c.outside) expect(core.isOpen(window, Date.parse(at)), `${at} (${core.formatLocal(Date.parse(at), c.zone)})`).toBe(false);
    });

    it(`${name}: open exactly for these stretches that night`, () => {
      const from = Date.parse(`${c.date}T00:00:00Z`) - 12 * HOUR;
      const open = core.occurrences(window, from, from + 48 * HOUR).map(([s, e]) => [new Date(s).toISOString(), new Date(e).toISOString()]);
      expect(open).toEqual(c.open.map(([s, e]) => [new Date(s).toISOString(), new Date(e).toISOString()]));
    });
  }

  it("the repeated hour lasts two hours in Madrid and the all-day schedule 25", () => {
    const hours = (c: Case) => c.open.reduce((sum, [s, e]) => sum + Date.parse(e) - Date.parse(s), 0) / HOUR;
    expect(CASES.map(hours)).toEqual([2, 1.5, 25, 1, 1.5, 25]);
  });
});

describe("alert schedules that follow a holiday calendar (decision 0077)", () => {
  // Sunday 2026-10-25 in Madrid is a holiday of 25 hours; the schedule is all day on Sundays.
  const holiday = [{ date: "2026-10-25", name: "Test" }];
  const at = Date.parse("2026-10-25T10:00:00Z");

  it("a custom schedule carries the holidays: not on holidays stays outside the whole holiday", () => {
    const window = alertWindow(sunday("Europe/Madrid", "2026-10-01"), { onHolidays: "closed", holidays: holiday });
    expect(window).toMatchObject({ onHolidays: "closed", holidays: holiday });
    expect(core.isOpen(window, at)).toBe(false);
    expect(core.isOpen(alertWindow(sunday("Europe/Madrid", "2026-10-01")), at)).toBe(true);
  });

  it("an 'any' schedule never follows a calendar", () => {
    const window = alertWindow({ ...sunday("Europe/Madrid", "2026-10-01"), schedule: "any" }, { onHolidays: "closed", holidays: holiday });
    expect(window).toEqual({ kind: "alert", schedule: "any", tz: "Europe/Madrid" });
    expect(core.isOpen(window, at)).toBe(true);
  });
});
