/**
 * D1's `activity_logs` as an outbox (docs/decisions/0048-activity-outbox.md). Console and API changes insert
 * their audit row there, in the same batch as the change it records; each company's store
 * (app/durable/company-log.ts) copies its rows, runs the alert engine over them, and the drain deletes them
 * from D1. Gateway and phone events skip the outbox (activity-ingest.server.ts).
 */
import { companyLogStub, type CompanyLogEnv } from "~/utils/company-log.server";

/** Companies drained at once by one sweep, and the most one sweep takes on. */
const PARALLEL = 4;
const COMPANIES_PER_SWEEP = 200;

export type SweepResult = { companies: number; copied: number; deleted: number; alerted: number };

/**
 * Drains every company with rows in the outbox, a few at a time: the queue consumer and the cron run it.
 * What one sweep leaves (more than DRAIN_LIMIT rows in a company) the next takes. A company whose drain
 * fails does not hold up the others: every company is tried, then the sweep fails naming the ones that did
 * (failing at the first error left the others' drains running unawaited, with nothing to see them finish).
 */
export async function drainActivityOutbox(env: CompanyLogEnv): Promise<SweepResult> {
  const { results } = await env.DB.prepare("SELECT DISTINCT company_id FROM activity_logs LIMIT ?").bind(COMPANIES_PER_SWEEP).all<{ company_id: number }>();
  const queue = results.map((r) => r.company_id);
  const out: SweepResult = { companies: queue.length, copied: 0, deleted: 0, alerted: 0 };
  const failed: number[] = [];
  await Promise.all(
    Array.from({ length: Math.min(PARALLEL, queue.length) }, async () => {
      for (let companyId = queue.shift(); companyId !== undefined; companyId = queue.shift()) {
        try {
          const r = await companyLogStub(env, companyId).drain(companyId);
          out.copied += r.rows;
          out.deleted += r.deleted;
          out.alerted += r.alerts.read;
        } catch (e) {
          console.error(`activity outbox: company ${companyId}'s drain failed; the next sweep tries again`, e);
          failed.push(companyId);
        }
      }
    }),
  );
  if (failed.length > 0) throw new Error(`activity outbox: the drain of companies ${failed.sort((a, b) => a - b).join(", ")} failed`);
  return out;
}
