import { describe, expect, it } from "vitest";
import { phoneTime } from "./phone-time";

describe("phoneTime", () => {
  const at = Date.UTC(2026, 10, 24, 15, 41); // 2026-11-24 15:41 UTC

  it.each([
    ["en", "America/New_York", /Nov 24, 2026.*10:41.*EST/],
    ["es", "America/New_York", /24 nov 2026.*10:41.*GMT-5/],
    ["en", "Asia/Tokyo", /Nov 25, 2026.*12:41.*GMT\+9/],
  ])("%s in %s carries the local time and the zone's label", (lang, tz, expected) => {
    expect(phoneTime(at, lang, tz)).toMatch(expected);
  });
});
