import { describe, expect, it } from "vitest";
import { formatCalendarDate, formatDate, formatDateTime, formatDateTimeSeconds, formatMoney, formatPhone, formatTicketTime, formatZonedTime, localDay } from "./format";

// 2026-01-05T14:03:09Z
const jan5 = Date.UTC(2026, 0, 5, 14, 3, 9);
// 2026-03-08T07:30:00Z: 1 minute before US DST starts in New York (02:00 local → 03:00)
const beforeDst = Date.UTC(2026, 2, 8, 6, 59);
const afterDst = Date.UTC(2026, 2, 8, 7, 0);

describe("date formatting", () => {
  it.each([
    ["UTC", jan5, "01/05/2026", "01/05/2026 14:03", "01/05/2026 14:03:09", "January 05, 2026, 14:03:09"],
    ["America/New_York", jan5, "01/05/2026", "01/05/2026 09:03", "01/05/2026 09:03:09", "January 05, 2026, 09:03:09"],
    ["Asia/Tokyo", Date.UTC(2026, 11, 31, 15, 0, 0), "01/01/2027", "01/01/2027 00:00", "01/01/2027 00:00:00", "January 01, 2027, 00:00:00"],
    ["America/New_York", beforeDst, "03/08/2026", "03/08/2026 01:59", "03/08/2026 01:59:00", "March 08, 2026, 01:59:00"],
    ["America/New_York", afterDst, "03/08/2026", "03/08/2026 03:00", "03/08/2026 03:00:00", "March 08, 2026, 03:00:00"],
    ["Asia/Kolkata", Date.UTC(2026, 5, 30, 18, 45), "07/01/2026", "07/01/2026 00:15", "07/01/2026 00:15:00", "July 01, 2026, 00:15:00"],
  ])("%s %d", (zone, ms, date, dateTime, dateTimeSeconds, ticket) => {
    expect(formatDate(ms, zone, "en")).toBe(date);
    expect(formatDateTime(ms, zone, "en")).toBe(dateTime);
    expect(formatDateTimeSeconds(ms, zone, "en")).toBe(dateTimeSeconds);
    expect(formatTicketTime(ms, zone, "en")).toBe(ticket);
  });

  it("writes the ticket time as the reader's language does", () => {
    expect(formatTicketTime(jan5, "UTC", "es")).toBe("5 de enero de 2026, 14:03:09");
    expect(formatTicketTime(Date.UTC(2026, 10, 23, 16, 20), "Europe/Madrid", "es")).toBe("23 de noviembre de 2026, 17:20:00");
    expect(formatTicketTime(jan5, "UTC", "en")).toBe("January 05, 2026, 14:03:09");
  });

  it("writes Spanish days day first, English ones as the spec's MM/DD/YYYY", () => {
    const nov27 = Date.UTC(2026, 10, 27, 9, 5, 7);
    expect(formatDate(nov27, "Europe/Madrid", "es")).toBe("27/11/2026");
    expect(formatDate(nov27, "Europe/Madrid", "es-ES")).toBe("27/11/2026");
    expect(formatDateTime(nov27, "Europe/Madrid", "es")).toBe("27/11/2026 10:05");
    expect(formatDateTimeSeconds(nov27, "Europe/Madrid", "es")).toBe("27/11/2026 10:05:07");
    expect(formatZonedTime(nov27, "Europe/Madrid", "es")).toBe("27/11/2026 10:05:07 CET");
    expect(formatDate(nov27, "Europe/Madrid", "en")).toBe("11/27/2026");
    expect(formatZonedTime(nov27, "America/New_York", "en")).toBe("11/27/2026 04:05:07 EST");
  });

  it("writes a calendar date (a due date) in the reader's order, with no zone shift", () => {
    expect(formatCalendarDate("2026-01-05", "es")).toBe("05/01/2026");
    expect(formatCalendarDate("2026-01-05", "en")).toBe("01/05/2026");
    expect(formatCalendarDate("", "es")).toBe("");
    expect(formatCalendarDate(null, "es")).toBe("");
  });

  it("gives the local calendar day whatever the language", () => {
    expect(localDay(Date.UTC(2026, 10, 27, 23, 30), "Europe/Madrid")).toBe("2026-11-28");
  });

  it("accepts Date objects", () => {
    expect(formatDateTime(new Date(jan5), "UTC", "en")).toBe("01/05/2026 14:03");
  });

  it("renders midnight as 00, not 24", () => {
    expect(formatDateTime(Date.UTC(2026, 0, 5), "UTC", "es")).toBe("05/01/2026 00:00");
  });

  it.each([null, undefined, Number.NaN, new Date("nope")])("returns an empty string for %s", (value) => {
    expect(formatDate(value, "UTC", "en")).toBe("");
    expect(formatTicketTime(value, "UTC", "es")).toBe("");
  });
});

describe("formatPhone", () => {
  it.each([
    ["001", "5551234567", "+1 555-123-4567"],
    ["1", "555-123-4567", "+1 555-123-4567"],
    [44, "2071234567", "+44 2071 234 567"],
    ["052", "55123456789", "+52 55123 456 789"],
    ["034", "+34612345678", "+34 612 345 678"],
    ["001", "+15551234567", "+1 555-123-4567"],
    ["034", "612345678", "+34 612 345 678"],
    ["001", "+34612345678", "+34612345678"],
    ["001", "55512", "+1 555-12"],
    ["", "5551234567", "555-123-4567"],
    [null, null, ""],
    ["001", "", "+1"],
  ])("(%s, %s) → %s", (country, digits, expected) => {
    expect(formatPhone(country, digits)).toBe(expected);
  });
});

describe("formatMoney", () => {
  it.each([
    [123450, "$1,234.50"],
    [0, "$0.00"],
    [5, "$0.05"],
    [-5, "-$0.05"],
    [100000000, "$1,000,000.00"],
  ])("%d cents → %s", (cents, expected) => {
    expect(formatMoney(cents)).toBe(expected);
  });

  it("returns an empty string for missing values", () => {
    expect(formatMoney(null)).toBe("");
    expect(formatMoney(Number.NaN)).toBe("");
  });
});
