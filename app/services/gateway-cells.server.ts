/**
 * Cells (docs/decisions/0050-cells.md): each company belongs to one cell and each gateway serves one. What a
 * gateway reports (events, board presence) counts only for the devices of its cell's companies; a device
 * of another cell is refused as not served, and nothing of it is written.
 */
import { eq, inArray, sql } from "drizzle-orm";
import { inChunks, schema, type Db } from "~/utils/db.server";

export const NOT_SERVED = "device not served by this gateway";

export type ReportedDevice = { id: number; companyId: number; fullName: string; served: boolean };

/**
 * The devices among `ids` that exist, each with whether `gatewayId` serves it (its company is in the
 * gateway's cell). Without a gateway (the console's own callers) every device is served.
 */
export async function devicesReportedBy(db: Db, gatewayId: number | undefined, ids: number[]): Promise<Map<number, ReportedDevice>> {
  const d = schema.devices;
  const c = schema.companies;
  const served =
    gatewayId === undefined
      ? sql<number>`1`
      : sql<number>`coalesce(${c.cell}, 'main') = (select ${schema.gateways.cell} from ${schema.gateways} where ${schema.gateways.id} = ${gatewayId})`;
  const rows = await inChunks(ids, (part) =>
    db.select({ id: d.id, companyId: d.companyId, fullName: d.fullName, served }).from(d).leftJoin(c, eq(c.id, d.companyId)).where(inArray(d.id, part)),
  );
  return new Map(rows.map((r) => [r.id, { ...r, served: Boolean(r.served) }]));
}
