/**
 * The operators' backfill of company activity logs (docs/decisions/0047-activity-log-per-company.md): each
 * company's store copies what D1 holds past it and drains it from D1 (decision 0048), company by company
 * in id order. A call does a bounded amount and says where to go on, so a run stopped anywhere is resumed
 * by running it again; the copy is idempotent by row id and the delete takes only what the store holds
 * (app/durable/company-log.ts).
 */
import { asc, gt } from "drizzle-orm";
import type { BackfillInput } from "~/schemas/activity-backfill";
import { assertCan, type Auth } from "~/utils/auth-guards.server";
import { companyLogStub, type CompanyLogEnv } from "~/utils/company-log.server";
import { schema, type Db } from "~/utils/db.server";
import { forbidden } from "~/utils/errors.server";

/** Rows one company copies per call: a few seconds of a store's time, well inside a request's limits. */
export const BACKFILL_ROWS = 20_000;

export type BackfillStep = {
  companies: { companyId: number; copied: number; deleted: number; rows: number; bytes: number; done: boolean }[];
  /** Where the next call starts (its `afterCompanyId`); null when every company's store holds its whole log. */
  next: number | null;
};

export async function backfillActivityLogs(db: Db, env: CompanyLogEnv, auth: Auth, input: BackfillInput): Promise<BackfillStep> {
  if (auth.company.type !== "root") forbidden();
  assertCan(auth, "company", "modify");
  const c = schema.companies;
  // Every company, removed ones too: their history is still theirs.
  const ids = await db.select({ id: c.id }).from(c).where(gt(c.id, input.afterCompanyId)).orderBy(asc(c.id)).limit(input.companies);
  const step: BackfillStep = { companies: [], next: null };
  for (const { id } of ids) {
    const stub = companyLogStub(env, id);
    const copy = await stub.drain(id, BACKFILL_ROWS);
    const { rows, bytes } = await stub.stats();
    step.companies.push({ companyId: id, copied: copy.rows, deleted: copy.deleted, rows, bytes, done: copy.done });
    // A company not finished is where the next call starts.
    if (!copy.done) return { ...step, next: id - 1 };
  }
  return { ...step, next: ids.length < input.companies ? null : ids[ids.length - 1].id };
}
