// Differential test: the WASM core against reference.mjs (Intl.DateTimeFormat, Node's ICU data)
// on thousands of seeded random windows and instants. Any disagreement is printed with its window.
import { test } from "node:test";
import assert from "node:assert/strict";
import { core } from "../../pkg/node.js";
import * as ref from "./reference.mjs";
import { execFileSync } from "node:child_process";
import { readFileSync, realpathSync } from "node:fs";
import { join, relative } from "node:path";

const SEED = Number(process.env.DIFF_SEED ?? 20260308);
const WINDOWS = Number(process.env.DIFF_WINDOWS ?? 2000);
const INSTANTS_PER_WINDOW = 12;
// Both tzdata releases agree on everything after 1980 for the zones we keep (see zonesToTest).
const FROM = Date.UTC(1990, 0, 1);
const TO = Date.UTC(2060, 0, 1);

function prng(seed) {
  // mulberry32
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Every canonical zone ICU knows whose offsets agree between the two databases over the test range
 * (sampled every 29 days and 7 hours). When Node's ICU data is another tzdata release, a zone that
 * changed between the two releases is left out and named; the same release must agree everywhere.
 */
function zonesToTest() {
  const same = process.versions.tz === core.tzdataVersion();
  const kept = [];
  const skipped = [];
  const unknown = [];
  for (const tz of core.zones({ links: false })) {
    try {
      ref.localOf(0, tz);
    } catch {
      unknown.push(tz);
      continue;
    }
    let agree = true;
    for (let t = FROM; t < TO && agree; t += 86_400_000 * 29 + 3_600_000 * 7) {
      if (core.offsetAt(t, tz) !== ref.localOf(t, tz).offset) agree = false;
    }
    (agree ? kept : skipped).push(tz);
  }
  return { kept, skipped, unknown, same };
}

function hhmm(rand, nearTransitions) {
  const h = nearTransitions && rand() < 0.6 ? Math.floor(rand() * 4) : Math.floor(rand() * 24);
  const m = [0, 0, 15, 30, 45, 59, Math.floor(rand() * 60)][Math.floor(rand() * 7)];
  return `${String(h).padStart(2, "0")}:${String(m).padStart(2, "0")}`;
}

const date = (ms) => new Date(ms).toISOString().slice(0, 10);

function randomWindow(rand, tz, around) {
  const pick = (list) => list[Math.floor(rand() * list.length)];
  const days = Array.from({ length: 7 }, () => rand() < 0.6);
  if (!days.includes(true)) days[Math.floor(rand() * 7)] = true;
  const times = () => {
    if (rand() < 0.2) return { allDay: true, startTime: null, endTime: null };
    let startTime = hhmm(rand, true);
    let endTime = hhmm(rand, true);
    while (endTime === startTime) endTime = hhmm(rand, false);
    return { allDay: false, startTime, endTime };
  };
  const dates = () => ({
    startDate: rand() < 0.2 ? null : date(around - rand() * 40 * 86_400_000),
    endDate: rand() < 0.3 ? null : date(around + rand() * 40 * 86_400_000),
  });
  const kind = pick(["ekey", "ekey", "ekey", "group", "group", "alert", "scheduledOpen"]);
  if (kind === "ekey") {
    const access = pick(["full", "custom", "custom", "oneTime"]);
    const d = dates();
    if (d.endDate && d.startDate && d.endDate < d.startDate) [d.startDate, d.endDate] = [d.endDate, d.startDate];
    return { kind, access, tz, ...d, days, ...times(), used: access === "oneTime" && rand() < 0.3 };
  }
  if (kind === "group") return { kind, tz, days, ...times() };
  if (kind === "alert") {
    const d = dates();
    if (d.endDate && d.startDate && d.endDate < d.startDate) [d.startDate, d.endDate] = [d.endDate, d.startDate];
    return { kind, schedule: rand() < 0.2 ? "any" : "custom", tz, ...d, days, ...times() };
  }
  const row = () => {
    const r = rand();
    if (r < 0.2) return { openWholeDay: false, openTime: "", closeTime: "" };
    if (r < 0.35) return { openWholeDay: true, openTime: "", closeTime: "" };
    let a = hhmm(rand, true);
    let b = hhmm(rand, false);
    while (b === a) b = hhmm(rand, false);
    return { openWholeDay: true, openTime: a < b ? a : b, closeTime: a < b ? b : a };
  };
  const exceptions = [];
  for (let i = 0; i < 3; i++) {
    const d = date(around + (rand() - 0.5) * 6 * 86_400_000);
    if (!exceptions.some((e) => e.date === d)) exceptions.push({ date: d, ...row() });
  }
  const fpi = rand() < 0.5;
  const firstEntryAt = fpi && rand() < 0.8 ? Math.round(around + (rand() - 0.5) * 2 * 86_400_000) : null;
  return { kind, tz, fpi, firstEntryAt, week: Array.from({ length: 7 }, row), exceptions };
}

/** Instants that stress the window: its edges (±1 s) on days near `around`, and random ones. */
function instantsFor(rand, w, around) {
  const out = [];
  const edges = [w.startTime, w.endTime, "00:00", "02:00", "03:00"].filter(Boolean);
  for (let i = 0; i < INSTANTS_PER_WINDOW; i++) {
    if (rand() < 0.3) {
      out.push(Math.floor(FROM + rand() * (TO - FROM)));
      continue;
    }
    const dayStart = Math.floor((around + (rand() - 0.5) * 4 * 86_400_000) / 86_400_000) * 86_400_000;
    const e = edges[Math.floor(rand() * edges.length)];
    const wall = dayStart + (+e.slice(0, 2) * 60 + +e.slice(3, 5)) * 60_000;
    const guess = wall - ref.localOf(wall, w.tz).offset * 1000;
    out.push(guess + [-1000, 0, 1000, -1, 3_600_000, -3_600_000][Math.floor(rand() * 6)]);
  }
  return out;
}

/** A day near one of the zone's offset changes in a random year, or any day. */
function aroundFor(rand, tz) {
  const year = 1990 + Math.floor(rand() * 70);
  let t = Date.UTC(year, Math.floor(rand() * 12), 1 + Math.floor(rand() * 28));
  if (rand() < 0.7) {
    const change = firstOffsetChange(tz, t);
    if (change && change < TO) t = change;
  }
  return t;
}

function firstOffsetChange(tz, from) {
  // Walk day by day for up to a year with the reference, then bisect to the millisecond.
  let a = from;
  const off = ref.localOf(a, tz).offset;
  for (let i = 0; i < 370; i++) {
    const b = a + 86_400_000;
    if (ref.localOf(b, tz).offset !== off) {
      let lo = a;
      let hi = b;
      while (hi - lo > 1000) {
        const mid = lo + Math.floor((hi - lo) / 2000) * 1000;
        if (ref.localOf(mid, tz).offset === off) lo = mid;
        else hi = mid;
      }
      return hi;
    }
    a = b;
  }
  return null;
}

test(`differential against Intl.DateTimeFormat (ICU tzdata ${process.versions.tz}, core ${core.tzdataVersion()}, seed ${SEED})`, () => {
  const { kept, skipped, unknown, same } = zonesToTest();
  console.log(`# zones compared: ${kept.length}; unknown to ICU: ${unknown.join(", ") || "none"}`);
  console.log(`# left out because the two tzdata releases differ there: ${skipped.join(", ") || "none"}`);
  if (same) assert.deepEqual(skipped, [], "same tzdata release: every zone must agree");
  assert.ok(skipped.length <= 10, `too many zones disagree: ${skipped.join(", ")}`);

  const rand = prng(SEED);
  const failures = [];
  let evaluations = 0;
  let intervals = 0;
  for (let i = 0; i < WINDOWS; i++) {
    const tz = kept[Math.floor(rand() * kept.length)];
    const around = aroundFor(rand, tz);
    const w = randomWindow(rand, tz, around);
    const errors = core.validate(w);
    if (errors.length) {
      failures.push(`generated an invalid window ${JSON.stringify(w)}: ${JSON.stringify(errors)}`);
      continue;
    }
    const compiled = core.compile(w);
    const times = instantsFor(rand, w, around);
    const batch = compiled.evaluate(Float64Array.from(times));
    times.forEach((t, k) => {
      evaluations++;
      const expected = { open: ref.isOpen(w, t), local: ref.formatLocal(t, tz) };
      const got = core.evaluate(w, t);
      if (got.open !== expected.open || got.local !== expected.local || batch[k] !== +expected.open) {
        failures.push(`at ${t} (${new Date(t).toISOString()}): core ${JSON.stringify(got)} batch ${batch[k]}, reference ${JSON.stringify(expected)}, window ${JSON.stringify(w)}`);
      }
    });
    // Occurrences: every interval's edges must flip the reference, and samples must agree.
    if (i % 4 === 0) {
      const from = around - 3 * 86_400_000;
      const to = around + 3 * 86_400_000;
      const occ = compiled.occurrences(from, to);
      for (const [s, e] of occ) {
        intervals++;
        const bad = (what) => failures.push(`occurrence [${s}, ${e}) ${what}, window ${JSON.stringify(w)}`);
        if (!ref.isOpen(w, s) || !ref.isOpen(w, e - 1)) bad("is not open at its ends");
        if (s > from && ref.isOpen(w, s - 1)) bad("is open just before its start");
        if (e < to && ref.isOpen(w, e)) bad("is open at its end");
      }
      for (let k = 0; k < 20; k++) {
        const t = Math.floor(from + rand() * (to - from));
        const inside = occ.some(([s, e]) => s <= t && t < e);
        if (inside !== ref.isOpen(w, t)) failures.push(`occurrences say ${inside} at ${t}, reference disagrees, window ${JSON.stringify(w)}`);
      }
    }
    compiled.free();
  }
  console.log(`# ${WINDOWS} windows, ${evaluations} instants, ${intervals} occurrence intervals checked, ${failures.length} disagreements`);
  for (const f of failures.slice(0, 20)) console.log(`# DIFF ${f}`);
  assert.equal(failures.length, 0);
});

// The engine against zdump's reading of the system's compiled zoneinfo, when that is the same
// release as the embedded data: every offset change from 1970 to 2060, one second before and at it.
const ZONEINFO = "/usr/share/zoneinfo";
const zdumpVersion = (() => {
  try {
    const zi = readFileSync(join(ZONEINFO, "tzdata.zi"), "utf8");
    execFileSync("zdump", ["UTC"]);
    return /^# version (\S+)/m.exec(zi)?.[1];
  } catch {
    return null;
  }
})();

// Locally a machine with another tzdata release skips this; CI (CI=true) must run it, so there it fails.
const zdumpMismatch = zdumpVersion !== core.tzdataVersion() && `system tzdata is ${zdumpVersion ?? "absent"}, the core embeds ${core.tzdataVersion()}`;

test("every transition 1970-2060 of every zone matches zdump", { skip: process.env.CI !== "true" && zdumpMismatch }, () => {
  assert.equal(zdumpMismatch, false, `cannot compare with zdump: ${zdumpMismatch}`);
  const names = core.zones();
  // A name whose zoneinfo file is a symbolic link reads the file it points to: zdump reads each file once
  // (zdump steps through every half day, most of this test's CPU), and the link is checked at its file's readings.
  const root = realpathSync(ZONEINFO);
  const fileOf = new Map(names.map((tz) => [tz, relative(root, realpathSync(join(root, tz)))]));
  const namesOf = new Map();
  for (const tz of names) namesOf.set(fileOf.get(tz), [...(namesOf.get(fileOf.get(tz)) ?? []), tz]);
  const out = execFileSync("zdump", ["-v", "-c", "1970,2060", ...namesOf.keys()], { encoding: "utf8", maxBuffer: 1 << 28 });
  const line = /^(\S+)\s+\w{3} (\w{3})\s+(\d+) (\d\d:\d\d:\d\d) (\d+) UT = .* gmtoff=(-?\d+)$/;
  const months = "JanFebMarAprMayJunJulAugSepOctNovDec";
  let checked = 0;
  const failures = [];
  for (const text of out.split("\n")) {
    const m = line.exec(text);
    if (!m) continue;
    const [, file, mon, day, hms, year, gmtoff] = m;
    const t = Date.parse(`${year}-${String(months.indexOf(mon) / 3 + 1).padStart(2, "0")}-${day.padStart(2, "0")}T${hms}Z`);
    for (const tz of namesOf.get(file)) {
      checked++;
      const got = core.offsetAt(t, tz);
      if (got !== +gmtoff) failures.push(`${tz} at ${new Date(t).toISOString()}: core ${got}, zdump ${gmtoff}`);
    }
  }
  console.log(`# ${checked} zdump readings over ${names.length} names (${namesOf.size} files), ${failures.length} disagreements`);
  for (const f of failures.slice(0, 20)) console.log(`# DIFF ${f}`);
  assert.ok(checked > 50_000);
  assert.equal(failures.length, 0);
});
