/**
 * Company settings (docs/ARCHITECTURE.md §7.1, /companySettings): read and save the caller's own company's
 * row. Scheduled-open hours and fob programmers have their own files beside this one.
 */
import { eq } from "drizzle-orm";
import type { Core } from "~core";
import { SETTINGS_MSG, type CompanySettingsInput } from "~/schemas/settings";
import { activityInsert } from "~/utils/activity-insert.server";
import { assertCan, type Auth } from "~/utils/auth-guards.server";
import { schema, type Db } from "~/utils/db.server";
import { ServiceError } from "~/utils/errors.server";

const { companySettings: cs, timeZones: tz, scheduleOpenDays: days, scheduleOpenExceptions: exceptions } = schema;
export const SETTINGS_MODULE = "company_settings";

export type SettingsRow = typeof cs.$inferSelect;

export async function findSettings(db: Db, companyId: number): Promise<SettingsRow | null> {
  return (await db.query.companySettings.findFirst({ where: eq(cs.companyId, companyId) })) ?? null;
}

/** The stored settings, or null before the first save (the page then shows defaults). */
export async function getCompanySettings(db: Db, auth: Auth): Promise<SettingsRow | null> {
  assertCan(auth, SETTINGS_MODULE);
  return findSettings(db, auth.company.id);
}

const columns = (input: CompanySettingsInput) => ({
  isMultiPhoneLogin: input.multiPhoneLogin,
  offlineReconnectHours: input.offlineReconnect,
  scheduleOpen: input.scheduleOpen,
  defaultTimeZoneId: input.defaultTimeZoneId,
  ekeyDurationHours: input.ekeyDuration,
  defaultCountryCode: input.defaultCountryCode,
  passwordExpiryMonths: input.passwordExpiryMonths,
  allowedFirmware: input.allowedFirmware,
  biometricSecurity: input.biometricSecurity,
  require2fa: input.require2fa,
  passwordResetSecurity: input.passwordResetSecurity,
  passwordResetSecondaryAction: input.passwordResetSecondaryAction,
  passwordResetPhone: input.passwordResetPhone,
  ...(input.forceFirmwareUpdate === undefined ? {} : { isForceFirmwareUpdate: input.forceFirmwareUpdate }),
  ...(input.fpi === undefined ? {} : { fpi: input.fpi }),
  // The activity log's policy: absent keeps the stored value (null retention is a value: indefinitely).
  ...(input.activityHotDays === undefined ? {} : { activityHotDays: input.activityHotDays }),
  ...(input.activityRetentionDays === undefined ? {} : { activityRetentionDays: input.activityRetentionDays }),
  ...(input.activityRetentionAction === undefined ? {} : { activityRetentionAction: input.activityRetentionAction }),
  ...(input.alertTexts === undefined ? {} : { alertTexts: input.alertTexts }),
  ...(input.firmwareWindowStart === undefined ? {} : { firmwareWindowStart: input.firmwareWindowStart }),
  ...(input.firmwareWindowEnd === undefined ? {} : { firmwareWindowEnd: input.firmwareWindowEnd }),
  ...(input.rolloutDeferredUntil === undefined ? {} : { rolloutDeferredUntil: input.rolloutDeferredUntil }),
});

/**
 * Saves the settings. The first save (no row yet) also creates the default schedule the spec
 * sends with it: seven closed days and one exception dated today in the company's zone, also
 * closed, so the automatic save never unlocks a door (docs/ARCHITECTURE.md §7.2). Whatever the gateways mirror
 * (the zone devices and hours are evaluated in, the scheduled-open flag, FPI) goes on the feed.
 */
export async function modifyCompanySettings(db: Db, auth: Auth, input: CompanySettingsInput, now: number, core: Core) {
  assertCan(auth, SETTINGS_MODULE, "modify");
  const companyId = auth.company.id;
  const zone = await db.query.timeZones.findFirst({ where: eq(tz.id, input.defaultTimeZoneId) });
  if (!zone) {
    throw new ServiceError(400, SETTINGS_MSG.timeZone, { fieldErrors: { defaultTimeZoneId: [SETTINGS_MSG.timeZone] } });
  }
  const current = await findSettings(db, companyId);
  const values = columns(input);
  const first = current == null;

  await db.batch([
    db
      .insert(cs)
      .values({ companyId, ...values, updatedAt: now })
      .onConflictDoUpdate({ target: cs.companyId, set: { ...values, updatedAt: now } }),
    ...(first
      ? [
          db
            .insert(days)
            .values([0, 1, 2, 3, 4, 5, 6].map((day) => ({ companyId, day, openWholeDay: false, openTime: "", closeTime: "" })))
            .onConflictDoNothing(),
          db
            .insert(exceptions)
            .values({ companyId, date: core.formatLocal(now, zone.name).slice(0, 10), openWholeDay: false, openTime: "", closeTime: "" })
            .onConflictDoNothing(),
        ]
      : []),
    activityInsert(db, { companyId, name: SETTINGS_MSG.updated, createdByUserId: auth.user.id, summary: auth.company.name, at: now }),
  ]);
  return (await findSettings(db, companyId))!;
}
