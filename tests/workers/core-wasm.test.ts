/**
 * The access-window core inside workerd: the module comes in as a precompiled import (workerd
 * cannot compile bytes at run time) and must answer the shared fixture exactly as Node does.
 */
import { describe, expect, it } from "vitest";
import coreModule from "~core/core.wasm";
import { createCore } from "~core";
import fixture from "../../core-wasm/tests/fixtures/cases.json";

type Windows = Record<string, Parameters<ReturnType<typeof createCore>["isOpen"]>[0]>;
const windows = fixture.windows as unknown as Windows;
const core = createCore(coreModule);

describe("core-wasm in workerd", () => {
  it("loads synchronously from the module import and reports its data", () => {
    expect(core.tzdataVersion()).toBe("2025b");
    expect(core.zones()).toContain("America/New_York");
  });

  it("answers every fixture instant like Node", () => {
    for (const c of fixture.evals) {
      expect(core.evaluate(windows[c.window], c.at), c.name).toEqual({ open: c.open, local: c.local });
      const compiled = core.compile(windows[c.window]);
      const at = typeof c.at === "string" ? Date.parse(c.at) : c.at;
      expect(compiled.evaluate(new Float64Array([at]))[0], c.name).toBe(c.open ? 1 : 0);
      compiled.free();
    }
  });

  it("lists the same occurrences", () => {
    for (const c of fixture.occurrences) {
      expect(core.occurrences(windows[c.window], c.from, c.to), c.name).toEqual(c.occurrences);
    }
  });

  it("makes the same decisions", () => {
    for (const c of fixture.decisions) {
      const keys = c.keys.map((k) => ({ ...k, window: windows[k.window] }));
      expect(core.decide(keys, c.at, { lang: c.lang as "en" | "es" })).toEqual(c.expected);
    }
  });
});
