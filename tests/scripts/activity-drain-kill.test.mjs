// D1's activity outbox drained into a company's store (docs/decisions/0048-activity-outbox.md) with the
// Worker killed after each of KILL_AFTER_MS in turn until the outbox is empty, each time restarted and the drain run
// again. The rows are dated 100 days ago, past the hot window, so the store's upkeep (its alarm, set by
// the drains) archives their days to R2 and drops them while the kills go on (decision 0049): in the end
// every row is in the archive exactly once, with its D1 id, none is left in the store or in D1. The drains
// are the operators' backfill calls (and the queue consumer's, which each call wakes); the Worker is the
// built console under Miniflare (tests/gateway/real-worker-end.mjs), whose workerd process is killed
// (SIGKILL) and started again on the same state.
// Run: node --test tests/scripts/activity-drain-kill.test.mjs
import assert from "node:assert/strict";
import { test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { backfill, rootToken } from "../../scripts/activity-backfill.mjs";
import { startWorkerEnd } from "../gateway/real-worker-end.mjs";

const ROWS = 30_000;
const INSERT_PART = 5_000;
const ROOT = { companyId: "ROOT", userName: "root@example.com", password: "Root#Demo2026" };
/**
 * A drain copies (500 rows a transaction), then deletes what its store holds in one statement. The kills
 * come after each of these delays in turn: on a quiet machine a drain of the rows left ends within 600 ms,
 * on a loaded one it takes seconds, and one of them cuts a copy either way.
 */
const KILL_AFTER_MS = [150, 300, 600];
const MAX_KILLS = 40;
const DAY = 86_400_000;
/** 100 days ago at midnight; the rows, 8 s apart, cover three days. */
const FIRST_AT = (Math.floor(Date.now() / DAY) - 100) * DAY;

test("a drain killed mid-way and run again loses and doubles nothing", { timeout: 540_000 }, async () => {
  const worker = await startWorkerEnd();
  try {
    // In parts: one statement for every row could outlast the local proxy's request on a loaded machine.
    for (let from = 0; from < ROWS; from += INSERT_PART)
      await worker.sql(
        `with recursive c(i) as (select ${from} union all select i + 1 from c where i + 1 < ${Math.min(from + INSERT_PART, ROWS)})
         insert into activity_logs (company_id, activity_type_id, operation_type, summary, activity_timestamp)
         select 3, (select id from activity_types where name = 'Door Opened'), 'Admin', 'kill ' || i, ${FIRST_AT} + i * 8000 from c`,
      );
    const written = (await worker.sql("select id from activity_logs where summary like 'kill %' order by id")).map((r) => r.id);
    assert.equal(written.length, ROWS);
    // One drain step run to its end first: it copies 20,000 rows and deletes them, the rest wait in D1.
    const step = await fetch(`${worker.url}/api/admin/platform/backfillActivityLogs`, {
      method: "POST",
      headers: { Authorization: await rootToken(worker.url, ROOT), "Content-Type": "application/json" },
      body: JSON.stringify({ afterCompanyId: 2, companies: 1 }),
    });
    assert.equal(step.status, 200);
    const [acme] = (await step.json()).payload.companies;
    assert.deepEqual([acme.companyId, acme.done], [3, false]);
    // (The queue consumer, woken by each call, drains too: a few thousand rows more may be gone.)
    const waiting = (await worker.sql("select count(*) n from activity_logs where summary like 'kill %'"))[0].n;
    assert.ok(waiting > 0 && waiting < ROWS, `${waiting} rows wait in D1`);
    let copiedNotDeleted = false;
    for (let kills = 1, left = ROWS; left > 0; kills++) {
      assert.ok(kills <= MAX_KILLS, `the outbox still holds ${left} rows after ${MAX_KILLS} kills`);
      const token = await rootToken(worker.url, ROOT);
      const cut = backfill(worker.url, token).catch(() => "cut off");
      await sleep(KILL_AFTER_MS[(kills - 1) % KILL_AFTER_MS.length]);
      await worker.stop();
      await cut;
      left = (await worker.sql("select count(*) n from activity_logs where summary like 'kill %'"))[0].n;
      const { rows, copiedThrough } = await worker.acmeStats();
      const archived = (await worker.acmeArchive()).reduce((n, day) => n + day.rows.filter((r) => String(r[9]).startsWith("kill ")).length, 0);
      console.log(`kill ${kills}: ${rows} rows in ACME's store, ${archived} of this test's in its archive, ${left} still in D1`);
      const [{ first }] = await worker.sql("select coalesce(min(id), 0) first from activity_logs where summary like 'kill %'");
      copiedNotDeleted ||= left > 0 && first <= copiedThrough;
      await worker.start();
    }
    // Some kill cut a drain after its store had copied rows and before D1 deleted them.
    assert.ok(copiedNotDeleted);
    await backfill(worker.url, await rootToken(worker.url, ROOT));
    const [left] = await worker.sql("select count(*) n from activity_logs where summary like 'kill %'");
    assert.equal(left.n, 0, "nothing is left in D1's outbox");
    // The upkeep run to its end: every day archived, the three past the window dropped from the store.
    const { hotFrom } = await worker.acmeUpkeep();
    assert.ok(hotFrom > FIRST_AT + 2 * DAY, `the store begins at ${hotFrom}`);
    const stored = await worker.acmeLog("select id from activity_logs where summary like 'kill %'");
    assert.deepEqual(stored, [], "the store has dropped the archived days");
    const archived = (await worker.acmeArchive())
      .flatMap((day) => day.rows)
      .filter((r) => String(r[9]).startsWith("kill "))
      .map((r) => r[0])
      .sort((a, b) => a - b);
    assert.deepEqual(archived, written, "the archive holds every row once, with its D1 id");
  } finally {
    await worker.dispose();
  }
});
