/**
 * Prefix search on indexed columns (docs/decisions/0035-search-and-bulk-actions.md). A leading-wildcard
 * LIKE reads every row of a company; instead each searched column is matched as a prefix with a range
 * `col >= q AND col < q'` (q' = q with its last character raised by one), which SQLite answers from an
 * index on (company_id, col). Several columns are combined as `id IN (… UNION ALL …)` because SQLite
 * would not use one index per branch of an OR here (it scans one index and filters).
 */
import { and, eq, isNull, sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";

/** The exclusive upper bound of the strings starting with `prefix`. */
export function prefixEnd(prefix: string): string {
  const last = prefix.codePointAt(prefix.length - 1)!;
  const cut = last > 0xffff ? 2 : 1;
  return prefix.slice(0, prefix.length - cut) + String.fromCodePoint(last + 1);
}

/** `expr` starts with `prefix` (both already in the same case), as an index range. */
export function startsWith(expr: SQLiteColumn | SQL, prefix: string): SQL {
  return sql`(${expr} >= ${prefix} and ${expr} < ${prefixEnd(prefix)})`;
}

/** `lower(col)`, the expression the search indexes of migration 0016 are built on. */
export const lowerOf = (col: SQLiteColumn) => sql`lower(${col})`;

/**
 * `table.id IN (select id … where company_id = ? and <branch1> union all …)`: one index range per
 * branch. `branches` are conditions on the same table, each served by an index led by company_id.
 */
export function idInAny(table: { id: SQLiteColumn; companyId: SQLiteColumn; deletedAt: SQLiteColumn }, companyId: number, branches: SQL[]): SQL {
  const selects = branches.map((b) => sql`select ${table.id} from ${table} where ${and(eq(table.companyId, companyId), isNull(table.deletedAt), b)}`);
  return sql`${table.id} in (${sql.join(selects, sql` union all `)})`;
}

/** The search text lower-cased, for the lower-cased columns (an empty search is none). */
export const searchKey = (q: string) => q.trim().toLowerCase();

/** The digits of a search that looks like a phone number ("+34 612-345", "612 345"), else "". */
export function phoneDigits(q: string): string {
  return /^[\d\s()+.-]+$/.test(q) ? q.replace(/\D/g, "") : "";
}
