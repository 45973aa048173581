import { describe, expect, it } from "vitest";
import { safeRedirect } from "./redirect";

describe("safeRedirect", () => {
  it("keeps same-site paths with their query and hash", () => {
    expect(safeRedirect("/users")).toBe("/users");
    expect(safeRedirect("/modifyUser?id=3#keys")).toBe("/modifyUser?id=3#keys");
    expect(safeRedirect("/activity?from=2026-01-01&to=2026-02-01")).toBe("/activity?from=2026-01-01&to=2026-02-01");
  });

  it.each([
    "//evil.example",
    "/\\evil.example",
    "/\\/evil.example",
    "/%5Cevil.example",
    "/%5cevil.example",
    "/%2Fevil.example",
    "/%2F%2Fevil.example",
    "/%252F%252Fevil.example",
    "/%5C%5Cevil.example",
    "/\t/evil.example",
    "/%09/evil.example",
    "/\n/evil.example",
    "https://evil.example",
    "javascript:alert(1)",
    " /users",
    "/%E0%A4%A",
    `/${"a".repeat(2000)}`,
  ])("refuses %j", (to) => {
    expect(safeRedirect(to)).toBe("/");
  });

  it("falls back for missing values", () => {
    expect(safeRedirect(null)).toBe("/");
    expect(safeRedirect(undefined, "/login")).toBe("/login");
  });
});
