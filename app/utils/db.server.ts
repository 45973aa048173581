import type { AppLoadContext } from "@remix-run/cloudflare";
import { drizzle, type DrizzleD1Database } from "drizzle-orm/d1";
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
