import { getTableColumns } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import type { DrizzleD1Database } from "drizzle-orm/d1";

/** D1 binds at most 100 parameters per statement, so multi-row inserts are cut to fit. */
const D1_MAX_PARAMS = 100;

export function chunkedInserts<T extends SQLiteTable>(db: DrizzleD1Database<any>, table: T, rows: T["$inferInsert"][]) {
  if (rows.length === 0) return [];
  const columns = Object.keys(getTableColumns(table)).length;
  const perStatement = Math.max(1, Math.floor(D1_MAX_PARAMS / columns));
  const statements = [];
  for (let i = 0; i < rows.length; i += perStatement) {
    statements.push(db.insert(table).values(rows.slice(i, i + perStatement)));
  }
  return statements;
}

/** Runs statements in D1 batches (each batch is one transaction). */
export async function runBatches(db: DrizzleD1Database<any>, statements: any[], size = 50): Promise<void> {
  for (let i = 0; i < statements.length; i += size) {
    const part = statements.slice(i, i + size);
    await db.batch(part as [any, ...any[]]);
  }
}

/**
 * Seeded history is not news: the alert engine starts after the newest activity id (company stores match
 * only rows past `alert_cursor`, decision 0048), so seeding never mails the demo alerts' recipients.
 */
export const HISTORY_ALERTED = `INSERT INTO alert_cursor (id, last_activity_id, updated_at)
  SELECT 1, coalesce(max(id), 0), 0 FROM activity_logs WHERE true
  ON CONFLICT (id) DO UPDATE SET last_activity_id = max(last_activity_id, excluded.last_activity_id)`;
