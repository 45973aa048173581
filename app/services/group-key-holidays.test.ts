import { describe, expect, it } from "vitest";
import { groupKeyHolidayChoice } from "./group-key-holidays";

describe("groupKeyHolidayChoice", () => {
  const group = { onHolidays: "closed" as const, holidayCalendarId: 7 };
  it("follows the group when the key says 'same as any day'", () => {
    expect(groupKeyHolidayChoice({ onHolidays: "ignore", holidayCalendarId: null }, group)).toEqual(group);
  });
  it("keeps the key's own choice and calendar otherwise", () => {
    expect(groupKeyHolidayChoice({ onHolidays: "holidayHours", holidayCalendarId: 3 }, group)).toEqual({ onHolidays: "holidayHours", holidayCalendarId: 3 });
  });
  it("ignores holidays when neither follows a calendar", () => {
    expect(groupKeyHolidayChoice({ onHolidays: "ignore", holidayCalendarId: null }, { onHolidays: "ignore", holidayCalendarId: null })).toEqual({
      onHolidays: "ignore",
      holidayCalendarId: null,
    });
  });
});
