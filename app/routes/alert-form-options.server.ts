import type { AppLoadContext } from "@remix-run/cloudflare";
import { alertActivities } from "~/services/alert-pickers.server";
import { calendarNames } from "~/services/holidays.server";
import { findSettings } from "~/services/settings.server";
import { timeZoneOptions, zoneIdOf } from "~/services/time-zones.server";
import type { Auth } from "~/utils/auth-guards.server";
import { companyToday } from "~/services/ekeys.server";
import { getDb, nowMs } from "~/utils/db.server";
import type { AlertOptions } from "~/components/alerts/alert-form";

/**
 * What both alert pages load: the activities the company can have, the zones, the company's zone,
 * today's date there, whether the company allows alerts by text message and its holiday calendars. Users and devices are searched as they are typed (resources.alert-pickers).
 */
export async function alertFormOptions(context: AppLoadContext, auth: Auth): Promise<{ options: AlertOptions; today: string; zoneId: number | null }> {
  const db = getDb(context);
  const [activities, zones, settings, calendars] = await Promise.all([alertActivities(db, auth), timeZoneOptions(db), findSettings(db, auth.company.id), calendarNames(db, auth)]);
  const today = companyToday(auth, context.core, nowMs());
  return {
    options: { activities, zones: zones.map((z) => ({ id: z.id, label: z.label })), textsAllowed: !!settings?.alertTexts, calendars },
    today,
    zoneId: zoneIdOf(zones, auth.company.zone),
  };
}
