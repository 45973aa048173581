import type { AppLoadContext } from "@remix-run/cloudflare";
import { getActivityOptions } from "~/services/activity.server";
import { timeZoneOptions, zoneIdOf } from "~/services/time-zones.server";
import type { Auth } from "~/utils/auth-guards.server";
import { companyToday } from "~/services/ekeys.server";
import { getDb, nowMs } from "~/utils/db.server";
import type { AlertOptions } from "~/components/alerts/alert-form";

/** What both alert pages load: the pickers' options, the company's zone and today's date there. */
export async function alertFormOptions(context: AppLoadContext, auth: Auth): Promise<{ options: AlertOptions; today: string; zoneId: number | null }> {
  const db = getDb(context);
  const [opts, zones] = await Promise.all([getActivityOptions(db, auth), timeZoneOptions(db)]);
  const today = companyToday(auth, context.core, nowMs());
  return {
    options: { activities: opts.activities, users: opts.users, devices: opts.devices, zones: zones.map((z) => ({ id: z.id, label: z.label })) },
    today,
    zoneId: zoneIdOf(zones, auth.company.zone),
  };
}
