/**
 * Reading a company's activity log from its own store (app/durable/company-log.ts): a drizzle handle whose
 * statements run in the company's Durable Object, so the activity service's queries are the same ones
 * D1 ran. Each statement first has the store copy what D1 holds past it, so an entry written a moment
 * ago is on the next page load.
 */
import { drizzle } from "drizzle-orm/sqlite-proxy";
import type { CompanyLog, ProxyQuery, ProxyRows } from "~/durable/company-log";
import { schema, type Db } from "./db.server";

export type CompanyLogEnv = { COMPANY_LOG: DurableObjectNamespace<CompanyLog>; DB: D1Database };

/** What the activity service reads with: the builder's selects and batches, nothing that writes. */
export type LogDb = Pick<Db, "select" | "batch">;

export function companyLogStub(env: CompanyLogEnv, companyId: number) {
  return env.COMPANY_LOG.get(env.COMPANY_LOG.idFromName(`company:${companyId}`));
}

/**
 * The company's log, brought up to date with D1 before each read. Until the store holds the whole log
 * (a large log's first copy is the backfill's, `npm run activity:backfill`), a statement it cannot answer
 * yet runs on D1, which still holds every row: the answer is the same either way.
 */
export function companyLogDb(env: CompanyLogEnv, companyId: number): LogDb {
  const stub = companyLogStub(env, companyId);
  const onD1 = async ({ sql, params, method }: ProxyQuery): Promise<ProxyRows> => {
    const rows = await env.DB.prepare(sql)
      .bind(...params)
      .raw<SqlStorageValue[]>();
    return method === "get" ? rows[0] : rows;
  };
  const proxy = drizzle(
    async (sql, params, method) => {
      const answer = await stub.query(companyId, { sql, params, method });
      // `get` of no row is undefined, which drizzle reads as none although its type says an array.
      return { rows: (answer.behind ? await onD1({ sql, params, method }) : answer.rows) as ProxyRows[] };
    },
    async (queries) => {
      const answer = await stub.batch(companyId, queries);
      const rows = answer.behind ? await Promise.all(queries.map(onD1)) : answer.rows;
      return rows.map((r) => ({ rows: r as ProxyRows[] }));
    },
    { schema },
  );
  // Both are drizzle's async SQLite builders over the same schema; only selects and batches of them run here.
  return proxy as unknown as LogDb;
}
