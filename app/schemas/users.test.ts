import { describe, expect, it } from "vitest";
import { followDisplayName } from "./users";

type Names = { firstName: string; lastName: string; displayName: string };

/** Types `text` into `key` one character at a time, as the form's `set` sees it. */
function type(v: Names, key: "firstName" | "lastName" | "displayName", text: string): Names {
  for (const c of text) v = followDisplayName(v, { ...v, [key]: v[key] + c });
  return v;
}

const empty: Names = { firstName: "", lastName: "", displayName: "" };

describe("followDisplayName", () => {
  it("builds 'last, first' whichever name is typed first", () => {
    expect(type(type(empty, "firstName", "Nora"), "lastName", "Tester").displayName).toBe("Tester, Nora");
    expect(type(type(empty, "lastName", "Tester"), "firstName", "Nora").displayName).toBe("Tester, Nora");
  });

  it("follows a correction of either name", () => {
    const v = type(type(empty, "lastName", "Molina"), "firstName", "Dan");
    expect(followDisplayName(v, { ...v, firstName: "Daniel" }).displayName).toBe("Molina, Daniel");
  });

  it("keeps a display name edited by hand", () => {
    let v = type(type(empty, "firstName", "Dan"), "displayName", " the gardener");
    v = type(v, "lastName", "Molina");
    expect(v.displayName).toBe("Dan the gardener");
  });

  it("keeps a stored display name that is not the built one", () => {
    const stored = { firstName: "Pedro", lastName: "Brown", displayName: "Pete" };
    expect(followDisplayName(stored, { ...stored, lastName: "Browne" }).displayName).toBe("Pete");
  });
});
