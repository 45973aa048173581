/**
 * What the alert editor's pickers offer: the activities the company can have (migration 0031), and a page
 * of the company's users or devices matching a search, served by the search indexes (decision 0035), so a
 * picker works the same with 10,000 users as with ten.
 */
import { asc, inArray } from "drizzle-orm";
import type { ActivityAudience } from "~/schemas/alerts";
import { assertCan, type Auth } from "~/utils/auth-guards.server";
import { schema, type Db } from "~/utils/db.server";
import { liveInCompany } from "~/utils/tenant.server";
import { devicesWhere } from "./devices.server";
import { userConditions } from "./users.server";

const { activityTypes: at, users: u, devices: d } = schema;
const MODULE = "activity";
/** Entries one search answers. */
export const PICKER_LIMIT = 20;

/** Which audiences of the catalogue a company of each type can have events of. */
export const AUDIENCES: Record<Auth["company"]["type"], ActivityAudience[]> = {
  ec: ["company"],
  var: ["company", "reseller"],
  oem: ["company", "reseller"],
  root: ["company", "reseller", "platform"],
};

/** The activities an alert of the caller's company may watch, by name. */
export async function alertActivities(db: Db, auth: Auth) {
  assertCan(auth, MODULE);
  return db
    .select({ id: at.id, name: at.name, type: at.type, alertConditions: at.alertConditions })
    .from(at)
    .where(inArray(at.audience, AUDIENCES[auth.company.type]))
    .orderBy(asc(at.name));
}

export type PickerOption = { id: number; label: string; detail?: string };

/** Up to PICKER_LIMIT of the company's live users (by name, e-mail or phone prefix) or devices (by name or serial). */
export async function searchPicker(db: Db, auth: Auth, kind: "users" | "devices", q: string): Promise<PickerOption[]> {
  assertCan(auth, MODULE);
  if (kind === "users") {
    const rows = await db
      .select({ id: u.id, name: u.displayName, email: u.email })
      .from(u)
      .where(liveInCompany(u, auth, ...userConditions(auth.company.id, { q, status: "all" })))
      .orderBy(asc(u.displayName), asc(u.id))
      .limit(PICKER_LIMIT);
    return rows.map((x) => ({ id: x.id, label: x.name, detail: x.email }));
  }
  const rows = await db
    .select({ id: d.id, fullName: d.fullName, displayName: d.displayName })
    .from(d)
    .where(devicesWhere(auth.company.id, q))
    .orderBy(asc(d.fullName), asc(d.id))
    .limit(PICKER_LIMIT);
  return rows.map((x) => ({ id: x.id, label: x.fullName || x.displayName, detail: x.fullName && x.displayName !== x.fullName ? x.displayName : undefined }));
}
