import type { AppLoadContext } from "@remix-run/cloudflare";
import type { PanelData } from "~/components/ekeys/types";
import { companyToday, getAssignedEkeys, getDeviceKeyOptions, getGroupKeyOptions } from "~/services/ekeys.server";
import { calendarsWithDates } from "~/services/holidays.server";
import { timeZoneOptions, zoneIdOf } from "~/services/time-zones.server";
import type { Auth } from "~/utils/auth-guards.server";
import { getDb, nowMs } from "~/utils/db.server";
import { can } from "~/utils/permissions";

/** Everything the e-key panel needs; `userId` null gives the empty, disabled preview of /addUser. */
export async function loadPanelData(context: AppLoadContext, auth: Auth, userId: number | null): Promise<PanelData> {
  const db = getDb(context);
  const now = nowMs();
  const today = companyToday(auth, context.core, now);
  const [assigned, devices, groups, zones, calendars] = userId
    ? await Promise.all([
        getAssignedEkeys(db, auth, userId, today),
        getDeviceKeyOptions(db, auth, userId),
        getGroupKeyOptions(db, auth, userId),
        timeZoneOptions(db),
        calendarsWithDates(db, auth),
      ])
    : [{ keys: [] }, [], [], [], []];
  return {
    userId,
    keys: assigned.keys,
    devices,
    groups,
    zones,
    calendars,
    defaultZoneId: zoneIdOf(zones, auth.company.zone),
    today,
    can: {
      add: can(auth.permissions, "users", "add"),
      modify: can(auth.permissions, "users", "modify"),
      delete: can(auth.permissions, "users", "delete"),
    },
  };
}
