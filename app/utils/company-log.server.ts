/**
 * Reading a company's activity log from its own store (app/durable/company-log.ts): a drizzle handle whose
 * statements run in the company's Durable Object, so the activity service's queries are the same ones
 * D1 ran. Each statement first has the store copy what D1's outbox holds past it.
 */
import { drizzle } from "drizzle-orm/sqlite-proxy";
import type { CompanyLog, ProxyRows } from "~/durable/company-log";
import { schema, type Db } from "./db.server";

export type CompanyLogEnv = { COMPANY_LOG: DurableObjectNamespace<CompanyLog>; DB: D1Database };

/** What the activity service reads with: the builder's selects and batches, nothing that writes. */
export type LogDb = Pick<Db, "select" | "batch">;

export function companyLogStub(env: CompanyLogEnv, companyId: number) {
  return env.COMPANY_LOG.get(env.COMPANY_LOG.idFromName(`company:${companyId}`));
}

/** The company's log, brought up to date with D1 before each read: an entry written a moment ago is on the next page load. */
export function companyLogDb(env: CompanyLogEnv, companyId: number): LogDb {
  const stub = companyLogStub(env, companyId);
  const proxy = drizzle(
    // `get` of no row is undefined, which drizzle reads as none although its type says an array.
    async (sql, params, method) => ({ rows: (await stub.query(companyId, { sql, params, method })) as ProxyRows[] }),
    async (queries) => (await stub.batch(companyId, queries)).map((r) => ({ rows: r as ProxyRows[] })),
    { schema },
  );
  // Both are drizzle's async SQLite builders over the same schema; only selects and batches of them run here.
  return proxy as unknown as LogDb;
}
