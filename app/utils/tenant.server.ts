/**
 * One helper scopes every query to the caller's company: `inCompany(table, auth, ...more)`.
 * A row of another company is then simply not found (404), never visible and never changed.
 */
import { and, eq, isNull, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";

type Owned = { companyId: SQLiteColumn };
type HasCompany = { company: { id: number } } | number;

export const companyIdOf = (who: HasCompany) => (typeof who === "number" ? who : who.company.id);

export function inCompany(table: Owned, who: HasCompany, ...more: (SQL | undefined)[]): SQL {
  return and(eq(table.companyId, companyIdOf(who)), ...more) as SQL;
}

/** The same, also skipping soft-deleted rows. */
export function liveInCompany(table: Owned & { deletedAt: SQLiteColumn }, who: HasCompany, ...more: (SQL | undefined)[]): SQL {
  return inCompany(table, who, isNull(table.deletedAt), ...more);
}
