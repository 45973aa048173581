#!/usr/bin/env node
/**
 * `npm run bench:import`: 10,000 users from one CSV file, as the import page sends it (decision 0089).
 * The built console under Miniflare with its own seeded D1 (tests/gateway/real-worker-end.mjs), called
 * through the admin API as ACME's admin: the preview, then every part of the commit in turn (one request
 * and one D1 batch each, as the page's progress bar does). Three rows are bad: the preview must name
 * exactly those three, the import must create the other 9,997, and the same file imported again must
 * change nothing. Prints each step's time; fails (exit 1) when a figure is not what it must be.
 *
 *   IMPORT_ROWS=20000 npm run bench:import
 *   IMPORT_KEYS=1 npm run bench:import   (each row also gets the seeded "Office Hours" group key and its own fob)
 */
import { startWorkerEnd } from "../tests/gateway/real-worker-end.mjs";
import { ensureBuilt, load } from "./bench-server.mjs";

const ROWS = Number(process.env.IMPORT_ROWS ?? 10_000);
const ADMIN = { companyId: "ACME", userName: "admin@acme.example", password: "Acme#Demo2026" };
const KEYS = process.env.IMPORT_KEYS === "1";
const HEADER = `first_name,last_name,display_name,email,country_code,phone,role,status,external_id${KEYS ? ",group_keys,fob" : ""}`;
const FIRST = ["Ana", "Luis", "Marta", "José", "Lucía", "Pablo", "Elena", "Jorge"];
const LAST = ["García", "López", "Martín", "Sánchez", "Pérez", "Gómez", "Ruiz", "Díaz"];
/** The bad rows (line numbers in the file, the header being line 1) and what is wrong with each. */
const BAD = new Map([
  [1_235, (cells) => ({ ...cells, email: "not-an-email" })],
  [5_679, (cells) => ({ ...cells, phone: "12" })],
  [ROWS + 1, (cells) => ({ ...cells, status: "retired" })],
]);

/** Row `i` (1-based): a Spanish mobile (699 plus six digits), every tenth an Auditor, every seventh inactive. */
function row(i) {
  const cells = {
    first: FIRST[i % FIRST.length],
    last: `${LAST[i % LAST.length]} ${i}`,
    display: "",
    email: `person${i}@import.example`,
    country: "034",
    phone: `699 ${String(i)
      .padStart(6, "0")
      .replace(/(\d{3})(\d{3})/, "$1 $2")}`,
    role: i % 10 === 0 ? "Auditor" : "",
    status: i % 7 === 0 ? "inactive" : "active",
    external: `EMP-${i}`,
  };
  const c = BAD.get(i + 1)?.(cells) ?? cells;
  return [c.first, c.last, c.display, c.email, c.country, c.phone, c.role, c.status, c.external, ...(KEYS ? ["Office Hours", `FOB-${i}`] : [])].join(",");
}

const csv = [HEADER, ...Array.from({ length: ROWS }, (_, i) => row(i + 1))].join("\r\n") + "\r\n";
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
const problems = [];
const expect = (what, actual, wanted) => {
  const ok = JSON.stringify(actual) === JSON.stringify(wanted);
  if (!ok) problems.push(`${what}: ${JSON.stringify(actual)}, expected ${JSON.stringify(wanted)}`);
};

ensureBuilt();
const end = await startWorkerEnd();
try {
  const call = async (path, body, token) => {
    const res = await fetch(`${end.url}/api/admin${path}`, {
      method: "POST",
      headers: { "Content-Type": "application/json", ...(token && { Authorization: token }) },
      body: JSON.stringify(body),
    });
    const answer = await res.json();
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(answer).slice(0, 200)}`);
    return answer;
  };
  const { token } = await call("/user/login", ADMIN);

  /** The preview, then each part of the commit; returns the times and the summed counts. */
  async function importFile(label) {
    const t0 = performance.now();
    const preview = (await call("/user/importUsersPreview", { csv }, token)).payload;
    const t1 = performance.now();
    const totals = { create: 0, change: 0, unchanged: 0, refuse: 0 };
    for (let chunk = 0; chunk < preview.chunks; chunk++) {
      const part = (await call("/user/importUsers", { csv, chunk }, token)).payload;
      for (const k of Object.keys(totals)) totals[k] += part.counts[k];
    }
    const t2 = performance.now();
    console.log(
      `${label}: preview ${seconds(t1 - t0)} (${JSON.stringify(preview.counts)}), commit ${seconds(t2 - t1)} in ${preview.chunks} parts (${JSON.stringify(totals)}), total ${seconds(t2 - t0)}; load ${load()}`,
    );
    return { preview, totals, ms: t2 - t0 };
  }

  console.log(`${ROWS.toLocaleString("en")} rows, ${(Buffer.byteLength(csv) / 1e6).toFixed(2)} MB`);
  const first = await importFile("first import ");
  const good = ROWS - BAD.size;
  expect("first preview counts", first.preview.counts, { create: good, change: 0, unchanged: 0, refuse: BAD.size });
  expect(
    "refused lines",
    first.preview.rows.filter((r) => r.outcome === "refuse").map((r) => r.line),
    [...BAD.keys()],
  );
  expect("first commit counts", first.totals, { create: good, change: 0, unchanged: 0, refuse: BAD.size });
  const [{ n }] = await end.sql(`select count(*) as n from users where email like 'person%@import.example' and deleted_at is null`);
  expect("users stored", n, good);
  const keyCount = async () =>
    (await end.sql(`select count(*) as n from ekey_assignments e join users u on u.id = e.user_id where u.email like 'person%@import.example' and e.is_group = 1`))[0].n;
  if (KEYS) expect("group keys stored", await keyCount(), good);

  const second = await importFile("second import");
  expect("second preview counts", second.preview.counts, { create: 0, change: 0, unchanged: good, refuse: BAD.size });
  expect("second commit counts", second.totals, { create: 0, change: 0, unchanged: good, refuse: BAD.size });
  const [{ n: after }] = await end.sql(`select count(*) as n from users where email like 'person%@import.example' and deleted_at is null`);
  expect("users stored after the second import", after, good);
  if (KEYS) expect("group keys stored after the second import", await keyCount(), good);

  console.log(`target: first import (preview and commit) under 60 s: ${first.ms < 60_000 ? "met" : "NOT met"} (${seconds(first.ms)})`);
  if (problems.length) {
    console.error(`FAILED:\n  ${problems.join("\n  ")}`);
    process.exitCode = 1;
  } else console.log(`the preview named exactly the ${BAD.size} bad rows; ${good.toLocaleString("en")} created; the second import changed nothing`);
} finally {
  await end.dispose();
}
