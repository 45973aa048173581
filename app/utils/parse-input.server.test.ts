import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ServiceError } from "./errors.server";
import { issuesByField } from "./field-errors";
import { parseInput } from "./parse-input.server";

const schema = z.object({
  name: z.string().min(1, "Name is required"),
  age: z.number().int("Age must be whole").min(18, "Too young"),
  rows: z.array(z.object({ at: z.string().min(1, "Time is required") })).optional(),
});

function thrown(fn: () => unknown): ServiceError {
  try {
    fn();
  } catch (e) {
    if (e instanceof ServiceError) return e;
    throw e;
  }
  throw new Error("expected a ServiceError");
}

describe("parseInput", () => {
  it("returns the parsed value when the input is valid", () => {
    expect(parseInput(schema, { name: "Ann", age: 30, extra: 1 })).toEqual({ name: "Ann", age: 30 });
  });

  it("throws 400 with the first message and every message per field", () => {
    const e = thrown(() => parseInput(schema, { name: "", age: 1.5 }));
    expect(e.status).toBe(400);
    expect(e.message).toBe("Name is required");
    expect(e.details.fieldErrors).toEqual({ name: ["Name is required"], age: ["Age must be whole", "Too young"] });
  });

  it("keys nested issues by the first segment unless told otherwise", () => {
    const input = { name: "A", age: 20, rows: [{ at: "" }] };
    expect(thrown(() => parseInput(schema, input)).details.fieldErrors).toEqual({ rows: ["Time is required"] });
    expect(thrown(() => parseInput(schema, input, (p) => p.join("."))).details.fieldErrors).toEqual({ "rows.0.at": ["Time is required"] });
  });

  it("keys issues without a path as '_'", () => {
    const e = thrown(() => parseInput(z.string({ invalid_type_error: "Text expected" }), 5));
    expect(e.details.fieldErrors).toEqual({ _: ["Text expected"] });
  });
});

describe("issuesByField", () => {
  it("groups messages by field", () => {
    expect(
      issuesByField([
        { path: ["a"], message: "x" },
        { path: ["a", 1], message: "y" },
        { path: [], message: "z" },
      ]),
    ).toEqual({ a: ["x", "y"], _: ["z"] });
  });
});
