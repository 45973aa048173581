import { describe, expect, it } from "vitest";
import { customFieldSchema, normaliseValue, resolveValues, type FieldDef } from "./custom-fields";

const choice = { type: "choice" as const, choices: ["Sales", "Support"] };

describe("normaliseValue", () => {
  it.each([
    [{ type: "text" as const, choices: [] }, "  Badge 7 ", { value: "Badge 7" }],
    [{ type: "text" as const, choices: [] }, "", { value: null }],
    [{ type: "text" as const, choices: [] }, "x".repeat(201), { error: "Too long (at most 200 characters)" }],
    [{ type: "text" as const, choices: [] }, "a\u202eb", { error: "Contains characters that are not allowed" }],
    [{ type: "number" as const, choices: [] }, "3,50", { value: "3.5" }],
    [{ type: "number" as const, choices: [] }, "007", { value: "7" }],
    [{ type: "number" as const, choices: [] }, "-1e3", { value: "-1000" }],
    [{ type: "number" as const, choices: [] }, 12, { value: "12" }],
    [{ type: "number" as const, choices: [] }, "three", { error: "Enter a number" }],
    [{ type: "number" as const, choices: [] }, "1.2.3", { error: "Enter a number" }],
    [{ type: "date" as const, choices: [] }, "2028-02-29", { value: "2028-02-29" }],
    [{ type: "date" as const, choices: [] }, "2027-02-29", { error: "Enter a date as YYYY-MM-DD" }],
    [{ type: "date" as const, choices: [] }, "01/02/2027", { error: "Enter a date as YYYY-MM-DD" }],
    [choice, "support", { value: "Support" }],
    [choice, "Marketing", { error: "Choose one of the field's choices" }],
  ])("%o %j → %j", (def, raw, expected) => {
    expect(normaliseValue(def, raw)).toEqual(expected);
  });
});

describe("resolveValues", () => {
  const defs: FieldDef[] = [
    { id: 1, key: "team", label: "Team", required: true, ...choice },
    { id: 2, key: "floor", label: "Floor", type: "number", choices: [], required: false },
  ];
  it("replaces every value (the form) or only the keys given (the API), and enforces required on the result", () => {
    const current = new Map([
      [1, "Sales"],
      [2, "3"],
    ]);
    expect(resolveValues(defs, current, { floor: "4" }, false)).toEqual({
      values: new Map([
        [1, "Sales"],
        [2, "4"],
      ]),
      errors: {},
    });
    expect(resolveValues(defs, current, { floor: "4" }, true).errors).toEqual({ team: "This field is required" });
    expect(resolveValues(defs, current, { team: null }, false).errors).toEqual({ team: "This field is required" });
    expect(resolveValues(defs, current, { colour: "red", floor: "x" }, false).errors).toEqual({ colour: "Unknown custom field", floor: "Enter a number" });
  });
});

describe("customFieldSchema", () => {
  it("reads choices one per line, requires them for a choice field only, and drops them for other types", () => {
    expect(customFieldSchema.parse({ key: "team", label: "Team", type: "choice", choices: "Sales\r\n\n Support " }).choices).toEqual(["Sales", "Support"]);
    expect(customFieldSchema.safeParse({ key: "team", label: "Team", type: "choice" }).success).toBe(false);
    expect(customFieldSchema.parse({ key: "n", label: "N", type: "number", choices: ["a"] }).choices).toEqual([]);
    expect(customFieldSchema.safeParse({ key: "9lives", label: "N", type: "text" }).success).toBe(false);
  });
});
