/**
 * Cells as the platform administrator sees them (docs/decisions/0050-cells.md, 0065): the list, adding a
 * cell, changing its endpoint or label, removing an empty one, and a company's move to another cell. Only
 * the platform (root) company's administrators with the company module's right may do any of it: a cell's
 * endpoint is where its boards connect, and a move redirects every board of the company to another fleet.
 */
import { and, asc, desc, eq, isNull, ne, sql } from "drizzle-orm";
import { CELL_RECORD_MSG, MAIN_CELL, type CellInput } from "~/schemas/cell-records";
import type { CompanyCellInput } from "~/schemas/cells";
import { activityInsertWhen } from "~/utils/activity-insert.server";
import { assertCan, type Auth } from "~/utils/auth-guards.server";
import { countWhere, schema, type Db } from "~/utils/db.server";
import { forbidden, notFound, ServiceError } from "~/utils/errors.server";
import type { Action } from "~/utils/permissions";
import { COMPANY_MSG, companyIdOf } from "./companies.server";

export const CELL_MSG = {
  moved: "Company moved to another cell",
  unknown: "There is no such cell",
  same: "The company is already in this cell",
} as const;

const c = schema.companies;
const k = schema.cells;

/** The platform company's administrators only, whatever a reseller's or a customer's role says. */
export function assertPlatformAdmin(auth: Auth, action: Action) {
  if (auth.company.type !== "root") forbidden();
  assertCan(auth, "company", action);
}

export type CellRow = { name: string; mqttUrl: string; label: string; companies: number };

// Written out: drizzle leaves a column of the outer table unqualified, and inside the subquery "name" is the company's.
const liveCompanies = sql<number>`(select count(*) from companies where companies.cell = cells.name and companies.deleted_at is null)`;
export const CELL_SORTS = { name: k.name, label: k.label, mqttUrl: k.mqttUrl, companies: liveCompanies } as const;

/** The cells with how many live companies each serves; by name unless a sort is given, every row unless a page is. */
export async function listCells(
  db: Db,
  auth: Auth,
  opts: { sort?: { key: string; desc: boolean }; page?: { offset: number; limit: number } } = {},
): Promise<{ rows: CellRow[]; total: number }> {
  assertPlatformAdmin(auth, "view");
  const key = opts.sort && opts.sort.key in CELL_SORTS ? (opts.sort.key as keyof typeof CELL_SORTS) : "name";
  const base = db
    .select({ name: k.name, mqttUrl: k.mqttUrl, label: k.label, companies: liveCompanies })
    .from(k)
    .orderBy((opts.sort?.desc ? desc : asc)(CELL_SORTS[key]), asc(k.name));
  const [rows, totals] = await db.batch([opts.page ? base.limit(opts.page.limit).offset(opts.page.offset) : base, countWhere(db, k)]);
  return { rows: rows.map((r) => ({ ...r, companies: Number(r.companies) })), total: totals[0]?.n ?? 0 };
}

/** One cell with its live companies' count (the modify screen asks before changing an endpoint boards use). */
export async function getCell(db: Db, auth: Auth, name: string): Promise<CellRow> {
  assertPlatformAdmin(auth, "view");
  const [row] = await db.select({ name: k.name, mqttUrl: k.mqttUrl, label: k.label, companies: liveCompanies }).from(k).where(eq(k.name, name));
  return row ? { ...row, companies: Number(row.companies) } : notFound(CELL_RECORD_MSG.notFound);
}

const taken = (field: "name" | "mqttUrl", message: string) => new ServiceError(409, message, { fieldErrors: { [field]: [message] } });

/** A cell of that name or endpoint, other than `except`. */
async function clash(db: Db, v: CellInput, except?: string) {
  const [[byName], [byUrl]] = await db.batch([
    db.select({ name: k.name }).from(k).where(eq(k.name, v.name)),
    db
      .select({ name: k.name })
      .from(k)
      .where(and(eq(k.mqttUrl, v.mqttUrl), except ? ne(k.name, except) : undefined)),
  ]);
  if (!except && byName) return taken("name", CELL_RECORD_MSG.nameTaken);
  if (byUrl) return taken("mqttUrl", CELL_RECORD_MSG.urlTaken);
  return null;
}

/**
 * Adds a cell. Its record reaches the gateways' feed by the table's trigger (migration 0028); a gateway
 * registered for it gets it with its first snapshot. Of two callers adding the same name or endpoint at once,
 * one adds it and the other is answered 409, with no audit entry.
 */
export async function addCell(db: Db, auth: Auth, v: CellInput, now: number): Promise<{ message: string }> {
  assertPlatformAdmin(auth, "add");
  const refused = await clash(db, v);
  if (refused) throw refused;
  const free = sql`not exists (select 1 from ${k} where ${k.name} = ${v.name} or ${k.mqttUrl} = ${v.mqttUrl})`;
  const [, inserted] = await db.batch([
    activityInsertWhen(
      db,
      {
        companyId: auth.company.id,
        name: "Cell Created",
        createdByUserId: auth.user.id,
        summary: `${v.name} · ${v.mqttUrl}`,
        details: { cell: v.name, mqtt_url: v.mqttUrl, label: v.label },
        at: now,
      },
      free,
    ),
    db.insert(k).values({ name: v.name, mqttUrl: v.mqttUrl, label: v.label, createdAt: now }).onConflictDoNothing().returning({ name: k.name }),
  ]);
  if (inserted.length === 0) throw (await clash(db, v)) ?? taken("name", CELL_RECORD_MSG.nameTaken);
  return { message: CELL_RECORD_MSG.created };
}

/**
 * Changes a cell's endpoint and label (its name identifies it and stays). A new endpoint reaches the cell's
 * gateways on the feed (migration 0028's trigger), which publish every board's configuration again with it:
 * boards connect there from their next connection (gateway/PROTOCOL.md).
 */
export async function modifyCell(db: Db, auth: Auth, v: CellInput, now: number): Promise<{ message: string; endpointChanged: boolean }> {
  assertPlatformAdmin(auth, "modify");
  const [before] = await db.select().from(k).where(eq(k.name, v.name));
  if (!before) notFound(CELL_RECORD_MSG.notFound);
  const refused = await clash(db, v, v.name);
  if (refused) throw refused;
  if (before.mqttUrl === v.mqttUrl && before.label === v.label) return { message: CELL_RECORD_MSG.modified, endpointChanged: false };
  // Unchanged since it was read, and the endpoint still free: otherwise nothing is written.
  const guard = sql`exists (select 1 from ${k} where ${k.name} = ${v.name} and ${k.mqttUrl} = ${before.mqttUrl} and ${k.label} = ${before.label})
    and not exists (select 1 from ${k} where ${k.mqttUrl} = ${v.mqttUrl} and ${k.name} <> ${v.name})`;
  const [, updated] = await db.batch([
    activityInsertWhen(
      db,
      {
        companyId: auth.company.id,
        name: "Cell Modified",
        createdByUserId: auth.user.id,
        summary: before.mqttUrl === v.mqttUrl ? `${v.name} · ${v.mqttUrl}` : `${v.name} · ${before.mqttUrl} → ${v.mqttUrl}`,
        details: { cell: v.name, from_mqtt_url: before.mqttUrl, mqtt_url: v.mqttUrl, from_label: before.label, label: v.label },
        at: now,
      },
      guard,
    ),
    db
      .update(k)
      .set({ mqttUrl: v.mqttUrl, label: v.label })
      .where(and(eq(k.name, v.name), guard))
      .returning({ name: k.name }),
  ]);
  if (updated.length === 0) throw (await clash(db, v, v.name)) ?? new ServiceError(409, CELL_RECORD_MSG.changedMeanwhile);
  return { message: CELL_RECORD_MSG.modified, endpointChanged: before.mqttUrl !== v.mqttUrl };
}

/** Removes a cell no live company is in. The main cell, where new companies start, is never removed. */
export async function deleteCell(db: Db, auth: Auth, name: string, now: number): Promise<{ message: string }> {
  assertPlatformAdmin(auth, "delete");
  if (name === MAIN_CELL) throw new ServiceError(422, CELL_RECORD_MSG.mainCell);
  const cell = await getCell(db, auth, name);
  if (cell.companies > 0) throw new ServiceError(422, CELL_RECORD_MSG.inUse);
  const empty = sql`exists (select 1 from ${k} where ${k.name} = ${name}) and not exists (select 1 from ${c} where ${c.cell} = ${name} and ${c.deletedAt} is null)`;
  const [, removed] = await db.batch([
    activityInsertWhen(
      db,
      {
        companyId: auth.company.id,
        name: "Cell Removed",
        createdByUserId: auth.user.id,
        summary: `${name} · ${cell.mqttUrl}`,
        details: { cell: name, mqtt_url: cell.mqttUrl },
        at: now,
      },
      empty,
    ),
    db
      .delete(k)
      .where(and(eq(k.name, name), empty))
      .returning({ name: k.name }),
  ]);
  if (removed.length === 0) throw new ServiceError(422, CELL_RECORD_MSG.inUse);
  return { message: CELL_RECORD_MSG.removed };
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
  // The company still where it was read, and the cell not removed meanwhile.
  const unchanged = and(eq(c.id, row.id), eq(c.cell, row.cell), sql`exists (select 1 from ${k} where ${k.name} = ${v.cell})`);
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
