// The CLI: one JSON answer per input line, in order, errors as lines, never stopping.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { evals } from "./fixture.mjs";

const bin = fileURLToPath(new URL("../../bin/access-window.mjs", import.meta.url));
const run = (args, input = "") => spawnSync(process.execPath, [bin, ...args], { input, encoding: "utf8" });

test("eval answers every line in order, bad lines included", () => {
  const lines = [
    ...evals.map((c) => JSON.stringify({ window: c.window, at: c.at })),
    "not json",
    JSON.stringify({ window: { kind: "group", tz: "Nowhere/City" }, at: 0 }),
    JSON.stringify({ window: evals[0].window }),
    "",
    JSON.stringify({ window: evals[0].window, at: evals[0].at }),
  ];
  const r = run(["eval"], lines.join("\n"));
  assert.equal(r.status, 0, r.stderr);
  const out = r.stdout
    .trimEnd()
    .split("\n")
    .map((l) => JSON.parse(l));
  assert.equal(out.length, evals.length + 4);
  evals.forEach((c, i) => assert.deepEqual(out[i], { open: c.open, local: c.local }, c.name));
  assert.equal(out[evals.length].error.code, "json.invalid");
  assert.equal(out[evals.length + 1].error.code, "tz.unknown");
  assert.equal(out[evals.length + 2].error.code, "at.missing");
  assert.deepEqual(out[evals.length + 3], { open: evals[0].open, local: evals[0].local });
});

test("occurrences", () => {
  const window = { kind: "group", tz: "America/New_York", days: [true, true, true, true, true, true, true], allDay: false, startTime: "01:30", endTime: "02:00" };
  const r = run(["occurrences"], JSON.stringify({ window, from: "2026-11-01T04:00:00Z", to: "2026-11-01T08:00:00Z" }) + "\n");
  assert.deepEqual(JSON.parse(r.stdout), {
    occurrences: [
      [Date.parse("2026-11-01T05:30:00Z"), Date.parse("2026-11-01T06:00:00Z")],
      [Date.parse("2026-11-01T06:30:00Z"), Date.parse("2026-11-01T07:00:00Z")],
    ],
  });
});

test("version", () => {
  assert.equal(run(["version"]).stdout, "2025b\n");
});

test("unknown command prints usage and fails", () => {
  const r = run(["frobnicate"]);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /usage/);
});
