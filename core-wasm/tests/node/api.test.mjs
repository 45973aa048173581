// The package API (pkg/index.js) against the shared fixture and its documented behaviour.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { core } from "../../pkg/node.js";
import { createCore, loadCore, CoreError } from "../../pkg/index.js";
import { evals, occurrences, decisions } from "./fixture.mjs";

const bytes = readFileSync(new URL("../../pkg/core.wasm", import.meta.url));

test("fixture: open and local time", () => {
  for (const c of evals) assert.deepEqual(core.evaluate(c.window, c.at), { open: c.open, local: c.local }, c.name);
});

test("fixture: compiled windows agree, one at a time and in batches", () => {
  for (const c of evals) {
    const compiled = core.compile(c.window);
    const at = typeof c.at === "string" ? Date.parse(c.at) : c.at;
    assert.equal(compiled.isOpen(at), c.open, c.name);
    assert.equal(compiled.isOpen(c.at), c.open, c.name);
    assert.deepEqual([...compiled.evaluate(new Float64Array([at, at, NaN]))], [+c.open, +c.open, 2], c.name);
    compiled.free();
  }
});

test("fixture: occurrences", () => {
  for (const c of occurrences) assert.deepEqual(core.occurrences(c.window, c.from, c.to), c.occurrences, c.name);
});

test("fixture: decisions", () => {
  for (const c of decisions) assert.deepEqual(core.decide(c.keys, c.at, { lang: c.lang }), c.expected, `${c.at} ${c.lang}`);
});

test("batches longer than one chunk", () => {
  const compiled = core.compile(evals[1].window);
  const times = new Float64Array(40_000).map((_, i) => Date.parse("2026-01-01T00:00:00Z") + i * 600_000);
  const out = compiled.evaluate(times);
  for (let i = 0; i < times.length; i += 997) assert.equal(out[i] === 1, core.isOpen(evals[1].window, times[i]));
});

test("validate reports every problem with stable codes", () => {
  const errors = core.validate({
    kind: "ekey",
    access: "custom",
    tz: "Mars/Base",
    startDate: "2026-03-01",
    endDate: "2026-02-01",
    days: [false, false, false, false, false, false, false],
    allDay: false,
    startTime: "09:00",
    endTime: "09:00",
  });
  assert.deepEqual(
    errors.map((e) => [e.code, e.field]),
    [
      ["tz.unknown", "tz"],
      ["endDate.beforeStart", "endDate"],
      ["days.none", "days"],
      ["endTime.equalsStart", "endTime"],
    ],
  );
  assert.match(errors[0].message, /Mars\/Base/);
  assert.deepEqual(core.validate(evals[0].window), []);
});

test("invalid input throws CoreError with the code", () => {
  assert.throws(
    () => core.isOpen({ kind: "group", tz: "UTC" }, 0),
    (e) => e instanceof CoreError && e.code === "days.missing",
  );
  assert.throws(
    () => core.compile({ kind: "door", tz: "UTC" }),
    (e) => e instanceof CoreError && e.errors[0].field === "kind",
  );
  assert.throws(
    () => core.isOpen(evals[0].window, "yesterday"),
    (e) => e.code === "at.invalid",
  );
  assert.throws(
    () => core.occurrences(evals[0].window, 10, 0),
    (e) => e.code === "to.beforeFrom",
  );
});

test("next change and next open", () => {
  const office = decisions[0].keys[0].window;
  assert.deepEqual(core.nextChange(office, "2026-03-16T08:00:00Z"), { open: true, nextChange: Date.parse("2026-03-16T16:30:00Z"), nextOpen: Date.parse("2026-03-17T07:00:00Z") });
  assert.equal(core.nextOpen(office, new Date("2026-03-14T16:00:00Z")), Date.parse("2026-03-16T07:00:00Z"));
});

test("zones, version and local formatting", () => {
  assert.equal(core.tzdataVersion(), "2025b");
  const all = core.zones();
  const canonical = core.zones({ links: false });
  assert.ok(all.includes("US/Eastern") && !canonical.includes("US/Eastern"));
  assert.ok(canonical.includes("America/New_York") && all.length > canonical.length && all.length >= 590);
  assert.equal(core.formatLocal("2026-03-08T07:30:00Z", "America/New_York"), "2026-03-08T03:30:00-04:00");
  assert.equal(core.offsetAt(0, "Asia/Kathmandu"), 19800);
});

test("factories: module, bytes and async", async () => {
  const fromModule = createCore(new WebAssembly.Module(bytes));
  const fromBytes = createCore(bytes);
  const fromAsync = await loadCore(bytes);
  const fromResponse = await loadCore(Promise.resolve(new Response(bytes, { headers: { "content-type": "application/wasm" } })));
  for (const c of [fromModule, fromBytes, fromAsync, fromResponse]) assert.equal(c.isOpen(evals[2].window, evals[2].at), evals[2].open);
  assert.throws(() => createCore("core.wasm"), TypeError);
});

test("the module has no imports", () => {
  assert.deepEqual(WebAssembly.Module.imports(new WebAssembly.Module(bytes)), []);
});
