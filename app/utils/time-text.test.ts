import { describe, expect, it } from "vitest";
import { normalizeTimeText, runsOvernight } from "./time-text";

describe("normalizeTimeText", () => {
  it.each([
    ["22:00", "22:00"],
    ["2200", "22:00"],
    ["22.00", "22:00"],
    ["22h00", "22:00"],
    ["9:05", "09:05"],
    ["905", "09:05"],
    [" 06:30 ", "06:30"],
    ["00:00", "00:00"],
  ])("%s → %s", (typed, time) => expect(normalizeTimeText(typed)).toBe(time));

  it.each(["24:00", "12:60", "7", "noon", ""])("leaves %s for the form's check", (typed) => expect(normalizeTimeText(typed)).toBe(typed.trim()));
});

describe("runsOvernight", () => {
  it("is true when the end comes before the start", () => {
    expect(runsOvernight("22:00", "06:00")).toBe(true);
    expect(runsOvernight("08:00", "17:00")).toBe(false);
    expect(runsOvernight("22:00", "")).toBe(false);
  });
});
