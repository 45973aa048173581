/**
 * What the activity filter's pickers offer: people and doors found by the directory's own searches in D1
 * (index ranges and the devices' trigram index, so 10,000 users answer as fast as 10), and the event
 * types of the company's log. Every answer is the caller's company only.
 */
import { and, asc, eq, gt, inArray, or, sql } from "drizzle-orm";
import { assertActivityReader, type Auth } from "~/utils/auth-guards.server";
import type { LogDb } from "~/utils/company-log.server";
import { schema, type Db } from "~/utils/db.server";
import { liveInCompany } from "~/utils/tenant.server";
import { devicesWhere } from "./devices.server";
import { userConditions } from "./users.server";

const { users: u, devices: d, activityTypes: at, activityCounts: c } = schema;

/** A picker shows this many matches; typing more narrows them. */
export const PICKER_LIMIT = 20;

export type PickerOption = { id: number; name: string; detail: string | null };

/** Door and security events come first in the event picker, and are offered before the log has any. */
export const KEY_EVENTS = [
  "Access Granted",
  "Access Denied",
  "Door Forced Open",
  "Door Held Open",
  "Tamper Detected",
  "Low Battery",
  "Unlocked With App",
  "App Access Denied",
  "Device Offline",
  "Command Failed",
] as const;

/** The company's people whose name, first or last name or e-mail starts with `q` (all of them by name without `q`). */
export async function searchActivityPeople(db: Db, auth: Auth, q: string): Promise<PickerOption[]> {
  assertActivityReader(auth);
  const rows = await db
    .select({ id: u.id, name: u.displayName, detail: u.email })
    .from(u)
    .where(liveInCompany(u, auth, ...userConditions(auth.company.id, { q, status: "all" })))
    .orderBy(asc(u.displayName), asc(u.id))
    .limit(PICKER_LIMIT);
  return rows;
}

/** Devices are named as the log names them: by full name, or the display name until one is configured. */
const deviceName = sql<string>`coalesce(nullif(${d.fullName}, ''), ${d.displayName})`;

/** The company's devices matching `q` as the Devices list's search matches them. */
export async function searchActivityDoors(db: Db, auth: Auth, q: string): Promise<PickerOption[]> {
  assertActivityReader(auth);
  return db.select({ id: d.id, name: deviceName, detail: d.serialNumber }).from(d).where(devicesWhere(auth.company.id, q)).orderBy(asc(deviceName), asc(d.id)).limit(PICKER_LIMIT);
}

/** The names of a chosen person and door, for the pickers (null when not the caller's). */
export async function pickedNames(db: Db, auth: Auth, person: number | undefined, door: number | undefined) {
  const [people, doors] = await Promise.all([
    person
      ? db
          .select({ id: u.id, name: u.displayName })
          .from(u)
          .where(and(eq(u.companyId, auth.company.id), eq(u.id, person)))
          .limit(1)
      : [],
    door
      ? db
          .select({ id: d.id, name: deviceName })
          .from(d)
          .where(and(eq(d.companyId, auth.company.id), eq(d.id, door)))
          .limit(1)
      : [],
  ]);
  return { person: people[0] ?? null, door: doors[0] ?? null };
}

/**
 * The event types the picker offers: the key events, then every other activity the company's log holds
 * (its tallies say which), as catalogue names. Platform-only activities never reach a company's log, so
 * they are not offered to it.
 */
export async function eventTypeOptions(log: LogDb, auth: Auth): Promise<string[]> {
  assertActivityReader(auth);
  const used = log
    .select({ id: c.activityTypeId })
    .from(c)
    .where(and(eq(c.companyId, auth.company.id), gt(c.n, 0)));
  const rows = await log
    .select({ name: at.name })
    .from(at)
    .where(or(inArray(at.id, used), inArray(at.name, [...KEY_EVENTS])))
    .orderBy(asc(at.name));
  const names = new Set(rows.map((r) => r.name));
  return [...KEY_EVENTS.filter((n) => names.has(n)), ...[...names].filter((n) => !(KEY_EVENTS as readonly string[]).includes(n))];
}
