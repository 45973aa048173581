/**
 * Guarded inserts for batches whose change is guarded by a row's state (a board still in stock, a
 * device still unconfigured). `INSERT … SELECT … WHERE guard` writes the row only when the guard holds
 * as the statement runs; a batch is one transaction, so statements placed before the guarded change
 * and given its guard all see the same state, and of two callers racing for a row only the one whose
 * change happens writes its records.
 */
import { getTableColumns, sql, type SQL } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Db } from "./db.server";

/** Rows of `table` (their missing columns null: give every column without a usable null), if `guard` holds. */
export function insertWhen<T extends SQLiteTable>(db: Db, table: T, rows: Record<string, unknown> | Record<string, unknown>[], guard: SQL) {
  const columns = Object.keys(getTableColumns(table));
  const selects = [rows].flat().map(
    (row) =>
      sql`select ${sql.join(
        columns.map((k) => sql`${row[k] ?? null}`),
        sql`, `,
      )} where ${guard}`,
  );
  return db.insert(table).select(sql.join(selects, sql` union all `));
}
