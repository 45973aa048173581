/**
 * Time zones: the picker's options and a company's default zone (company settings), looked up one
 * way for every feature.
 */
import { asc, eq } from "drizzle-orm";
import { schema, type Db } from "~/utils/db.server";

const tz = schema.timeZones;
const cs = schema.companySettings;

/** Every zone for a picker, by label. */
export async function timeZoneOptions(db: Db): Promise<{ id: number; name: string; label: string }[]> {
  return db.select({ id: tz.id, name: tz.name, label: tz.label }).from(tz).orderBy(asc(tz.label));
}

/** The id of the zone named `name` (a session's `auth.company.zone`) among a picker's options; null when none. */
export const zoneIdOf = (zones: readonly { id: number; name: string }[], name: string | null): number | null => zones.find((z) => z.name === name)?.id ?? null;

/**
 * A company's default zone from its settings; null when it has none (callers fall back to UTC). The caller's own
 * company's zone comes with the session (`auth.company.zone`, decision 0042): this is for another company's.
 */
export async function companyDefaultZone(db: Db, companyId: number): Promise<{ id: number; name: string } | null> {
  const [row] = await db.select({ id: tz.id, name: tz.name }).from(cs).innerJoin(tz, eq(tz.id, cs.defaultTimeZoneId)).where(eq(cs.companyId, companyId)).limit(1);
  return row ?? null;
}
