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
 * `transfers`: the device's transfers less than MOVE_GRACE_MS ago, oldest first: each the company it left
 * and the instant (the Worker's clock).
 */
export type ReportedDevice = {
  id: number;
  companyId: number;
  fullName: string;
  served: boolean;
  /** The door's alarm settings (decision 0076). */
  heldOpenSeconds: number | null;
  forcedAlarm: boolean;
  transfers: { fromCompanyId: number; at: number }[];
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
        movedAt: d.cellMovedAt,
      })
      .from(d)
      .leftJoin(c, eq(c.id, d.companyId))
      .where(inArray(d.id, part)),
  );
  const moved = rows.filter((r) => r.movedAt !== null && r.movedAt > now - MOVE_GRACE_MS).map((r) => r.id);
  const transfers = moved.length ? await recentTransfers(db, moved, now) : new Map<number, ReportedDevice["transfers"]>();
  return new Map(rows.map(({ movedAt: _, ...r }) => [r.id, { ...r, served: Boolean(r.served), transfers: transfers.get(r.id) ?? [] }]));
}

/**
 * The transfers of `ids` less than MOVE_GRACE_MS before `now`, oldest first, from the transfers' own
 * records (device_transfer_items' device index, migration 0048): a device moved twice in a day files its
 * events under each company it passed through, not only the last one it left.
 */
async function recentTransfers(db: Db, ids: number[], now: number): Promise<Map<number, ReportedDevice["transfers"]>> {
  const t = schema.deviceTransfers;
  const items = schema.deviceTransferItems;
  const rows = await inChunks(ids, (part) =>
    db
      .select({ deviceId: items.deviceId, fromCompanyId: t.companyId, at: t.createdAt })
      .from(items)
      .innerJoin(t, eq(t.id, items.transferId))
      .where(and(inArray(items.deviceId, part), gt(t.createdAt, now - MOVE_GRACE_MS))),
  );
  const byDevice = new Map<number, ReportedDevice["transfers"]>();
  for (const { deviceId, ...transfer } of rows.sort((a, b) => a.at - b.at)) byDevice.set(deviceId, [...(byDevice.get(deviceId) ?? []), transfer]);
  return byDevice;
}

/**
 * The company whose log gets an event of `device` that happened at `at` (board time): decision 0074. The
 * first recent transfer after `at` names the company the device was in then; after the last, its company now.
 */
export function companyAt(device: ReportedDevice, at: number): number {
  return device.transfers.find((t) => at < t.at)?.fromCompanyId ?? device.companyId;
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
