import type { AppLoadContext } from "@remix-run/cloudflare";
import { count, type SQL } from "drizzle-orm";
import { drizzle, type DrizzleD1Database } from "drizzle-orm/d1";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import * as schema from "../../db/schema";

export type Db = DrizzleD1Database<typeof schema>;
export { schema };

const cache = new WeakMap<D1Database, Db>();

/** One drizzle handle per D1 binding (cheap, but loaders call this on every request). */
export function dbFromEnv(env: { DB: D1Database }): Db {
  let db = cache.get(env.DB);
  if (!db) {
    db = drizzle(env.DB, { schema });
    cache.set(env.DB, db);
  }
  return db;
}

export function getDb(context: AppLoadContext): Db {
  return dbFromEnv(context.cloudflare.env);
}

/** Milliseconds since the epoch; the one clock the server code reads (see clock.server.ts). */
export { nowMs } from "./clock.server";

/** D1 binds at most 100 parameters per statement. */
export const D1_MAX_PARAMS = 100;
/**
 * How many ids one `IN (...)` list may carry: below D1's limit, leaving room for the few other
 * parameters of the statement (company scope, flags).
 */
export const IN_CHUNK = 90;

/** Cuts a list into parts of at most `size` (IN_CHUNK by default). */
export function chunks<T>(list: readonly T[], size = IN_CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

/** `{ n }`: how many rows of `table` match `where` (a list's total beside its page, or a plain count). */
export function countWhere(db: Pick<Db, "select">, table: SQLiteTable, where?: SQL) {
  return db.select({ n: count() }).from(table).where(where);
}

/** Runs `query` once per part of `ids` (see IN_CHUNK) and concatenates the rows. */
export async function inChunks<I, T>(ids: readonly I[], query: (part: I[]) => Promise<T[]>): Promise<T[]> {
  const out: T[] = [];
  for (const part of chunks(ids)) out.push(...(await query(part)));
  return out;
}
