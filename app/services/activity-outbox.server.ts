/**
 * D1's `activity_logs` as an outbox (docs/decisions/0048-activity-outbox.md). Writers insert there, in the
 * same batch as the change the row records; each company's store (app/durable/company-log.ts) copies its
 * rows, and a drain deletes them from D1 once the store holds them and the alert engine has read them.
 *
 * Exactly once by event id across the two: a re-sent event is either in the store or still in D1 (whose
 * unique index refuses it). A writer asks the stores which ids they hold, then writes the rest with a
 * compare-and-set on the company's drain count: a drain between the check and the write fails the batch,
 * and the writer checks again.
 */
import { sql } from "drizzle-orm";
import { companyLogStub, type CompanyLogEnv } from "~/utils/company-log.server";
import { schema, type Db } from "~/utils/db.server";
import { ServiceError } from "~/utils/errors.server";

/** A write refused this many times in a row (a drain each time) is given up as a 503. */
const ATTEMPTS = 4;
/** Companies drained at once by one sweep, and the most one sweep takes on. */
const PARALLEL = 4;
const COMPANIES_PER_SWEEP = 200;

type Keyed = { companyId: number; eventId?: string | null };
type Guard = ReturnType<typeof casStatement>;

function casStatement(db: Db, companyId: number, epoch: number) {
  const t = schema.logDrains;
  return db
    .insert(t)
    .values({ companyId, epoch })
    .onConflictDoUpdate({ target: t.companyId, set: { epoch: sql`case when ${t.epoch} = ${epoch} then ${t.epoch} else -1 end` } });
}

const refusedByCas = (e: unknown) => /CHECK constraint failed/i.test(String((e as Error)?.message ?? e));

/**
 * Calls `write` with the rows whose event ids no store holds yet (rows without an event id always pass),
 * and the compare-and-set statements that must lead its D1 batch. `write` runs again, with a fresh check,
 * when a drain came in between; its batch must be all-or-nothing.
 */
export async function writeOnce<R extends Keyed, T>(env: CompanyLogEnv, db: Db, rows: R[], write: (fresh: R[], guards: Guard[]) => Promise<T>): Promise<T> {
  const byCompany = new Map<number, string[]>();
  for (const r of rows) if (r.eventId) byCompany.set(r.companyId, [...(byCompany.get(r.companyId) ?? []), r.eventId]);
  for (let attempt = 1; ; attempt++) {
    const checks = await Promise.all([...byCompany].map(async ([companyId, ids]) => ({ companyId, ...(await companyLogStub(env, companyId).knownEvents(companyId, ids)) })));
    const held = new Set(checks.flatMap((c) => c.held.map((id) => `${c.companyId}/${id}`)));
    const fresh = rows.filter((r) => !r.eventId || !held.has(`${r.companyId}/${r.eventId}`));
    try {
      return await write(
        fresh,
        checks.map((c) => casStatement(db, c.companyId, c.epoch)),
      );
    } catch (e) {
      if (!refusedByCas(e)) throw e;
      if (attempt >= ATTEMPTS) throw new ServiceError(503, "The activity log is busy. Please try again.");
    }
  }
}

export type SweepResult = { companies: number; copied: number; deleted: number };

/**
 * Drains every company with rows in the outbox, a few at a time: the queue consumer and the cron run it
 * after the alert engine. What one sweep leaves (more than DRAIN_LIMIT rows in a company) the next takes.
 */
export async function drainActivityOutbox(env: CompanyLogEnv): Promise<SweepResult> {
  const { results } = await env.DB.prepare(
    "SELECT DISTINCT company_id FROM activity_logs WHERE id <= coalesce((SELECT last_activity_id FROM alert_cursor WHERE id = 1), 0) LIMIT ?",
  )
    .bind(COMPANIES_PER_SWEEP)
    .all<{ company_id: number }>();
  const queue = results.map((r) => r.company_id);
  const out: SweepResult = { companies: queue.length, copied: 0, deleted: 0 };
  await Promise.all(
    Array.from({ length: Math.min(PARALLEL, queue.length) }, async () => {
      for (let companyId = queue.shift(); companyId !== undefined; companyId = queue.shift()) {
        const r = await companyLogStub(env, companyId).drain(companyId);
        out.copied += r.rows;
        out.deleted += r.deleted;
      }
    }),
  );
  return out;
}
