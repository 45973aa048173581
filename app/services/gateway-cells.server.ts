/**
 * Cells (docs/decisions/0050-cells.md): each company belongs to one cell and each gateway serves one. What a
 * gateway reports (events, board presence) counts only for the devices of its cell's companies; a device
 * of another cell is refused as not served, and nothing of it is written. For MOVE_GRACE_MS after a company
 * moves, or a device is transferred to a company of another cell, the cell it left is still served for it:
 * events its gateway buffered before the boards moved drain (the event id dedups one sent through both
 * cells). Within that time a transferred device's events go by their board time (decision 0074): from
 * before the transfer to the company it left, the others to the one it joined, whichever cell sends them.
 */
import { and, eq, gt, inArray, isNull, or, sql } from "drizzle-orm";
import { inChunks, schema, type Db } from "~/utils/db.server";

export const NOT_SERVED = "device not served by this gateway";
/** How long the cell a company or a transferred device left still delivers its events. */
export const MOVE_GRACE_MS = 24 * 3600_000;

/**
 * `transfer`: the device's transfer less than MOVE_GRACE_MS ago, if it had one: the company it left and
 * the instant (the Worker's clock).
 */
export type ReportedDevice = {
  id: number;
  companyId: number;
  fullName: string;
  served: boolean;
  /** The door's alarm settings (decision 0076). */
  heldOpenSeconds: number | null;
  forcedAlarm: boolean;
  transfer: { fromCompanyId: number; at: number } | null;
};

/** The cell a gateway serves. */
export async function cellOf(db: Db, gatewayId: number): Promise<string> {
  const [row] = await db.select({ cell: schema.gateways.cell }).from(schema.gateways).where(eq(schema.gateways.id, gatewayId));
  return row?.cell ?? "main";
}

/**
 * The devices among `ids` that exist, each with whether `gatewayId` serves it (its company is in the
 * gateway's cell, or the company or the device left that cell less than MOVE_GRACE_MS before `now`) and
 * its recent transfer. Without a gateway (the console's own callers) every device is served.
 */
export async function devicesReportedBy(db: Db, gatewayId: number | undefined, ids: number[], now: number): Promise<Map<number, ReportedDevice>> {
  const d = schema.devices;
  const c = schema.companies;
  const gatewayCell = sql`(select ${schema.gateways.cell} from ${schema.gateways} where ${schema.gateways.id} = ${gatewayId ?? null})`;
  const served =
    gatewayId === undefined
      ? sql<number>`1`
      : sql<number>`coalesce(${or(
          eq(c.cell, gatewayCell),
          and(eq(c.previousCell, gatewayCell), gt(c.cellMovedAt, now - MOVE_GRACE_MS)),
          and(eq(d.previousCell, gatewayCell), gt(d.cellMovedAt, now - MOVE_GRACE_MS)),
        )}, 0)`;
  const rows = await inChunks(ids, (part) =>
    db
      .select({
        id: d.id,
        companyId: d.companyId,
        fullName: d.fullName,
        heldOpenSeconds: d.heldOpenSeconds,
        forcedAlarm: d.forcedAlarm,
        served,
        previousCompanyId: d.previousCompanyId,
        movedAt: d.cellMovedAt,
      })
      .from(d)
      .leftJoin(c, eq(c.id, d.companyId))
      .where(inArray(d.id, part)),
  );
  return new Map(
    rows.map(({ previousCompanyId, movedAt, ...r }) => {
      const recent = previousCompanyId !== null && movedAt !== null && movedAt > now - MOVE_GRACE_MS;
      return [r.id, { ...r, served: Boolean(r.served), transfer: recent ? { fromCompanyId: previousCompanyId, at: movedAt } : null }];
    }),
  );
}

/** The company whose log gets an event of `device` that happened at `at` (board time): decision 0074. */
export function companyAt(device: ReportedDevice, at: number): number {
  return device.transfer && at < device.transfer.at ? device.transfer.fromCompanyId : device.companyId;
}

/** Where a live device's boards connect: its company's cell and that cell's MQTT endpoint, or null. */
export async function deviceCell(db: Db, deviceId: number): Promise<{ cell: string; mqttUrl: string } | null> {
  const d = schema.devices;
  const c = schema.companies;
  const [row] = await db
    .select({ cell: schema.cells.name, mqttUrl: schema.cells.mqttUrl })
    .from(d)
    .innerJoin(c, eq(c.id, d.companyId))
    .innerJoin(schema.cells, eq(schema.cells.name, c.cell))
    .where(and(eq(d.id, deviceId), isNull(d.deletedAt)));
  return row ?? null;
}
