import { describe, expect, it } from "vitest";
import { readableZone, zoneMatches } from "./zone-label";

describe("readableZone", () => {
  it.each([
    ["America/New York", "New York (America)"],
    ["America/New_York", "New York (America)"],
    ["America/Argentina/Buenos Aires", "Buenos Aires (America/Argentina)"],
    ["Europe/Madrid", "Madrid (Europe)"],
    ["UTC", "UTC"],
  ])("%s → %s", (label, readable) => expect(readableZone(label)).toBe(readable));
});

describe("zoneMatches", () => {
  const newYork = { label: "America/New York", name: "America/New_York" };
  const saoPaulo = { label: "America/Sao Paulo", name: "America/Sao_Paulo" };
  it("finds a zone by its city, its region or its canonical id", () => {
    for (const q of ["york", "New York", "new york america", "America/New_York", "AMERICA/NEW YORK"]) expect(zoneMatches(newYork, q)).toBe(true);
    expect(zoneMatches(saoPaulo, "são paulo")).toBe(true);
  });
  it("refuses a zone that lacks a word of the query", () => {
    expect(zoneMatches(newYork, "madrid")).toBe(false);
    expect(zoneMatches(newYork, "york europe")).toBe(false);
  });
  it("matches everything on an empty query", () => expect(zoneMatches(newYork, "  ")).toBe(true));
});
