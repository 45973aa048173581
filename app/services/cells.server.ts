/**
 * Cells as the platform administrator sees them (docs/decisions/0050-cells.md): the list, and a company's
 * move to another cell. Only the platform (root) company's administrators with the right to modify
 * companies may do either: a move redirects every board of the company to another gateway fleet.
 */
import { and, asc, eq, isNull, sql } from "drizzle-orm";
import type { CompanyCellInput } from "~/schemas/cells";
import { activityInsertWhen } from "~/utils/activity-insert.server";
import { assertCan, type Auth } from "~/utils/auth-guards.server";
import { schema, type Db } from "~/utils/db.server";
import { forbidden, notFound, ServiceError } from "~/utils/errors.server";
import { COMPANY_MSG, companyIdOf } from "./companies.server";

export const CELL_MSG = {
  moved: "Company moved to another cell",
  unknown: "There is no such cell",
  same: "The company is already in this cell",
} as const;

const c = schema.companies;

/** The platform company's administrators only, whatever a reseller's or a customer's role says. */
export function assertPlatformAdmin(auth: Auth, action: "view" | "modify") {
  if (auth.company.type !== "root") forbidden();
  assertCan(auth, "company", action);
}

export type CellRow = { name: string; mqttUrl: string; label: string; companies: number };

/** Every cell with how many live companies it serves, by name. */
export async function listCells(db: Db, auth: Auth): Promise<CellRow[]> {
  assertPlatformAdmin(auth, "view");
  const k = schema.cells;
  return db
    .select({
      name: k.name,
      mqttUrl: k.mqttUrl,
      label: k.label,
      // Written out: drizzle leaves a column of the outer table unqualified, and inside the subquery "name" is the company's.
      companies: sql<number>`(select count(*) from companies where companies.cell = cells.name and companies.deleted_at is null)`,
    })
    .from(k)
    .orderBy(asc(k.name));
}

/**
 * Moves a live company to another cell. The row remembers the cell it left and when (its gateway may
 * still deliver what it buffered, app/services/gateway-cells.server.ts); the database's trigger puts the
 * move on the gateways' feed in the same statement. The move and its audit entry land together, and a
 * concurrent move of the same company makes this one write nothing.
 */
export async function moveCompanyToCell(db: Db, auth: Auth, v: CompanyCellInput, now: number): Promise<{ message: string; from: string; to: string }> {
  assertPlatformAdmin(auth, "modify");
  const id = await companyIdOf(db, v.id);
  const [[row], [cell]] = await db.batch([
    db
      .select({ id: c.id, name: c.name, code: c.code, cell: c.cell })
      .from(c)
      .where(and(eq(c.id, id), isNull(c.deletedAt))),
    db.select({ name: schema.cells.name }).from(schema.cells).where(eq(schema.cells.name, v.cell)),
  ]);
  if (!row) notFound(COMPANY_MSG.notFound);
  if (!cell) throw new ServiceError(422, CELL_MSG.unknown, { fieldErrors: { cell: [CELL_MSG.unknown] } });
  if (row.cell === v.cell) throw new ServiceError(422, CELL_MSG.same, { fieldErrors: { cell: [CELL_MSG.same] } });
  const unchanged = and(eq(c.id, row.id), eq(c.cell, row.cell));
  await db.batch([
    activityInsertWhen(
      db,
      {
        companyId: auth.company.id,
        name: "Moved Company To Cell",
        createdByUserId: auth.user.id,
        summary: `${row.name} (${row.code}) moved from cell ${row.cell} to cell ${v.cell}`,
        details: { company_id: row.code, from_cell: row.cell, to_cell: v.cell },
        at: now,
      },
      sql`exists (select 1 from ${c} where ${unchanged})`,
    ),
    db.update(c).set({ cell: v.cell, previousCell: row.cell, cellMovedAt: now, updatedAt: now }).where(unchanged),
  ]);
  return { message: CELL_MSG.moved, from: row.cell, to: v.cell };
}
