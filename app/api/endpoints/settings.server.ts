import { z } from "zod";
import {
  checkFirmwareWindow,
  checkResetPhone,
  companySettingsFields,
  fobProgrammersSchema,
  HOT_DAYS,
  keepModeFields,
  RETENTION_ACTIONS,
  RETENTION_DAYS,
  scheduleOpenSchema,
  SETTINGS_MSG,
  type SettingsKey,
} from "~/schemas/settings";
import { ON_HOLIDAYS } from "~/schemas/holidays";
import * as fobs from "~/services/fob-programmers.server";
import * as scheduled from "~/services/scheduled-open.server";
import * as settings from "~/services/settings.server";
import { SETTINGS_MODULE } from "~/services/settings.server";
import type { FobProgrammer } from "~/services/fob-programmers.server";
import type { ScheduleOpen } from "~/services/scheduled-open.server";
import type { SettingsRow } from "~/services/settings.server";
import { bit, bitShape } from "../flags.server";
import { endpoint } from "../define.server";
import { wireObject, withWireFields } from "../wire-fields.server";

/** The settings' domain fields in the spec's names (`offline_reconect` sic); field errors go back under these. */
const SETTINGS_WIRE = {
  multiPhoneLogin: "is_multi_phone_login",
  offlineReconnect: "offline_reconect",
  scheduleOpen: "schedule_open",
  defaultTimeZoneId: "default_time_zone_id",
  ekeyDuration: "ekey_duration",
  defaultCountryCode: "default_country_code",
  allowedFirmware: "allowed_firmware",
  forceFirmwareUpdate: "is_force_firmware_update",
  fpi: "fpi",
  passwordExpiryMonths: "password_expiry_duration",
  biometricSecurity: "biometric_security",
  require2fa: "require_2fa",
  passwordResetSecurity: "password_reset_security",
  passwordResetSecondaryAction: "password_reset_secondary_action",
  passwordResetPhone: "password_reset_phone",
  passwordResetPhoneCountry: "password_reset_phone_country",
  activityHotDays: "activity_hot_days",
  activityRetentionDays: "activity_retention_days",
  activityRetentionAction: "activity_retention_action",
  alertTexts: "alert_texts",
  firmwareWindowStart: "firmware_window_start",
  firmwareWindowEnd: "firmware_window_end",
  rolloutDeferredUntil: "rollout_deferred_until",
} as const satisfies Record<SettingsKey, string>;

/** The activity log's policy as the OpenAPI document explains it, in the body and the answer alike. */
const ACTIVITY_DOC = {
  hotDays: `Days the company's activity log keeps at hand, ${HOT_DAYS.min} to ${HOT_DAYS.max} (default ${HOT_DAYS.default}); older entries are read from the archive.`,
  retentionDays: `Days activity is kept, ${RETENTION_DAYS.min} to ${RETENTION_DAYS.max}; null keeps it indefinitely (the default). It may be shorter than activity_hot_days.`,
  retentionAction: "What happens to activity older than activity_retention_days: delete removes the entries; anonymise keeps them with the people in them removed.",
};
const KEPT_WHEN_ABSENT = " Absent keeps the stored value.";
const ON_HOLIDAYS_DOC =
  "what the doors held open by the scheduled-open hours do on a holiday of holiday_calendar_id: ignore (the weekly hours), closed (kept locked, or open only inside the holiday's own hours), holidayHours (the holiday's hours replace the day's); a dated exception still wins";
const ALERT_TEXTS_DOC =
  "'1': alert recipients who are the company's users may be texted (each recipient's channel: email, text or both); '0' (the default): alerts only mail. Texts go to the user's own phone, through the text-message limits.";
const WINDOW_DOC =
  "Forced firmware offers reach the company's boards only between firmware_window_start and firmware_window_end (HH:mm, each door's own zone; a window may run past midnight); null or empty: any time. Both or neither. An update a user starts is not held back.";
const DEFER_DOC =
  "Until this date (YYYY-MM-DD, in each door's zone) the company's boards are in no staged rollout's wave and keep their type's active release; null or empty: they take part.";
const { activityHotDays, activityRetentionDays, activityRetentionAction, alertTexts, firmwareWindowStart, firmwareWindowEnd, rolloutDeferredUntil } = companySettingsFields.shape;

/** A settings body in the spec's names, checked as the page's form is, as the settings the service takes. */
const settingsBody = wireObject(
  companySettingsFields.extend({
    activityHotDays: activityHotDays.describe(ACTIVITY_DOC.hotDays + KEPT_WHEN_ABSENT),
    activityRetentionDays: activityRetentionDays.describe(ACTIVITY_DOC.retentionDays + KEPT_WHEN_ABSENT),
    activityRetentionAction: activityRetentionAction.describe(ACTIVITY_DOC.retentionAction + KEPT_WHEN_ABSENT),
    alertTexts: alertTexts.describe(ALERT_TEXTS_DOC + " Also true/false. Absent keeps the stored value."),
    firmwareWindowStart: firmwareWindowStart.describe(WINDOW_DOC + KEPT_WHEN_ABSENT),
    firmwareWindowEnd: firmwareWindowEnd.describe(WINDOW_DOC + KEPT_WHEN_ABSENT),
    rolloutDeferredUntil: rolloutDeferredUntil.describe(DEFER_DOC + KEPT_WHEN_ABSENT),
  }),
  SETTINGS_WIRE,
)
  .superRefine((v, ctx) => {
    checkResetPhone(v, ctx, (k) => SETTINGS_WIRE[k]);
    checkFirmwareWindow(v, ctx, (k) => SETTINGS_WIRE[k]);
  })
  .transform(keepModeFields);

/** The settings in the spec's names (docs/ARCHITECTURE.md §8; decision 0017); flags are '1'/'0' as the spec stores them. */
function settingsPayload(s: SettingsRow | null, schedule: ScheduleOpen, assigned: FobProgrammer[]) {
  return {
    id: s?.id ?? null,
    company_id: s?.companyId ?? null,
    is_multi_phone_login: bit(!!s?.isMultiPhoneLogin),
    offline_reconect: s?.offlineReconnectHours ?? 24,
    schedule_open: bit(!!s?.scheduleOpen),
    fpi: bit(!!s?.fpi),
    default_time_zone_id: s?.defaultTimeZoneId ?? null,
    ekey_duration: s?.ekeyDurationHours ?? 24,
    default_country_code: s?.defaultCountryCode ?? "001",
    password_expiry_duration: s?.passwordExpiryMonths ?? 0,
    is_force_firmware_update: bit(!!s?.isForceFirmwareUpdate),
    allowed_firmware: s?.allowedFirmware ?? "All Users",
    biometric_security: bit(!!s?.biometricSecurity),
    require_2fa: bit(!!s?.require2fa),
    password_reset_security: s?.passwordResetSecurity ?? "email",
    password_reset_secondary_action: s?.passwordResetSecondaryAction ?? "nothing",
    password_reset_phone: s?.passwordResetPhone ?? "",
    activity_hot_days: s?.activityHotDays ?? HOT_DAYS.default,
    activity_retention_days: s?.activityRetentionDays ?? null,
    activity_retention_action: s?.activityRetentionAction ?? "delete",
    alert_texts: bit(!!s?.alertTexts),
    firmware_window_start: s?.firmwareWindowStart ?? null,
    firmware_window_end: s?.firmwareWindowEnd ?? null,
    rollout_deferred_until: s?.rolloutDeferredUntil ?? null,
    schedule_opens: schedule.week.map((d) => ({ scheduleDay: d.day, openWholeDay: d.openWholeDay, openTime: d.openTime, closeTime: d.closeTime })),
    schedule_exceptions: schedule.exceptions.map((e) => ({ id: e.id, exceptionDate: e.date, openWholeDay: e.openWholeDay, openTime: e.openTime, closeTime: e.closeTime })),
    on_holidays: schedule.onHolidays,
    holiday_calendar_id: schedule.holidayCalendarId,
    fob_programmers: assigned.map(programmerPayload),
  };
}

const programmerPayload = (p: FobProgrammer) => ({ id: p.id, display_name: p.displayName });
const programmerShape = z.object({ id: z.number(), display_name: z.string() });
const dayShape = z.object({ scheduleDay: z.number(), openWholeDay: z.boolean(), openTime: z.string(), closeTime: z.string() });

const settingsShape = z.object({
  id: z.number().nullable(),
  company_id: z.number().nullable(),
  is_multi_phone_login: bitShape,
  offline_reconect: z.number(),
  schedule_open: bitShape,
  fpi: bitShape,
  default_time_zone_id: z.number().nullable(),
  ekey_duration: z.number(),
  default_country_code: z.string(),
  password_expiry_duration: z.number(),
  is_force_firmware_update: bitShape,
  allowed_firmware: z.string(),
  biometric_security: bitShape,
  require_2fa: bitShape,
  password_reset_security: z.string(),
  password_reset_secondary_action: z.string(),
  password_reset_phone: z.string(),
  activity_hot_days: z.number().int().describe(ACTIVITY_DOC.hotDays),
  activity_retention_days: z.number().int().nullable().describe(ACTIVITY_DOC.retentionDays),
  activity_retention_action: z.enum(RETENTION_ACTIONS).describe(ACTIVITY_DOC.retentionAction),
  alert_texts: bitShape.describe(ALERT_TEXTS_DOC),
  firmware_window_start: z.string().nullable().describe(WINDOW_DOC),
  firmware_window_end: z.string().nullable().describe(WINDOW_DOC),
  rollout_deferred_until: z.string().nullable().describe(DEFER_DOC),
  schedule_opens: z.array(dayShape),
  schedule_exceptions: z.array(dayShape.omit({ scheduleDay: true }).extend({ id: z.number(), exceptionDate: z.string() })),
  on_holidays: z.enum(ON_HOLIDAYS).describe(ON_HOLIDAYS_DOC),
  holiday_calendar_id: z.number().nullable().describe("the holiday calendar the scheduled-open hours follow; null with on_holidays ignore"),
  fob_programmers: z.array(programmerShape),
});

export const settingsEndpoints = [
  endpoint({
    method: "GET",
    path: "/settings/getCompanySettings",
    tag: "Company settings",
    summary:
      "The caller's company settings with its scheduled-open rows (scheduleDay 0 = Monday … 6 = Sunday), exceptions and assigned fob programmers. Before the first save id is null and the values are the defaults.",
    auth: "token",
    permission: { modules: SETTINGS_MODULE },
    response: z.object({ message: z.string(), payload: settingsShape }),
    async handler({ db, auth }) {
      const [row, schedule, programmers] = await Promise.all([settings.getCompanySettings(db, auth), scheduled.getScheduleOpen(db, auth), fobs.getFobProgrammers(db, auth)]);
      return { payload: settingsPayload(row, schedule, programmers.assigned) };
    },
  }),
  endpoint({
    method: "PUT",
    path: "/settings/modifyCompanySettings",
    tag: "Company settings",
    summary:
      "Saves the settings object. password_reset_secondary_action is kept only for the text mode and password_reset_phone (required) only for admin: a national number is read in default_country_code (or password_reset_phone_country), and it comes back as E.164. The activity log's activity_hot_days, activity_retention_days (null: indefinitely) and activity_retention_action may be left out to keep their stored values, and so may alert_texts (allows alerts by text message; off by default). The first save also creates a closed seven-day schedule and one closed exception dated today. Needs the modify right.",
    auth: "token",
    permission: { modules: SETTINGS_MODULE, action: "modify" },
    body: settingsBody,
    response: z.object({ message: z.string(), payload: z.object({ id: z.number(), is_force_firmware_update: bitShape }) }),
    async handler({ db, auth, body, now, core }) {
      const saved = await withWireFields(SETTINGS_WIRE, () => settings.modifyCompanySettings(db, auth, body, now, core));
      return { message: SETTINGS_MSG.updated, payload: { id: saved.id, is_force_firmware_update: bit(saved.isForceFirmwareUpdate) } };
    },
  }),
  endpoint({
    method: "PUT",
    path: "/settings/modifyScheduleOpen",
    tag: "Company settings",
    summary:
      "Replaces the scheduled-open hours: fpi, schedule_opens (seven rows {scheduleDay 0-6, openWholeDay, openTime, closeTime}; open with empty times is the whole day) and schedule_exceptions ({exceptionDate YYYY-MM-DD, openWholeDay, openTime, closeTime}). on_holidays (ignore, closed, holidayHours; left out: unchanged) with holiday_calendar_id, one of the company's calendars, unless ignore. Checked by the access-window core; 409 before the settings are first saved. Needs the modify right.",
    auth: "token",
    permission: { modules: SETTINGS_MODULE, action: "modify" },
    body: scheduleOpenSchema,
    response: z.object({ message: z.string() }),
    async handler({ db, auth, body, now, core }) {
      await scheduled.saveScheduleOpen(db, auth, body, now, core);
      return { message: SETTINGS_MSG.scheduleChanged };
    },
  }),
  endpoint({
    method: "GET",
    path: "/settings/getFobProgrammers",
    tag: "Company settings",
    summary: "The company's fob programmers: available_programmers and assigned_programmers.",
    auth: "token",
    permission: { modules: SETTINGS_MODULE },
    response: z.object({ message: z.string(), payload: z.object({ available_programmers: z.array(programmerShape), assigned_programmers: z.array(programmerShape) }) }),
    async handler({ db, auth }) {
      const lists = await fobs.getFobProgrammers(db, auth);
      return { payload: { available_programmers: lists.available.map(programmerPayload), assigned_programmers: lists.assigned.map(programmerPayload) } };
    },
  }),
  endpoint({
    method: "PUT",
    path: "/settings/modifyFobProgrammers",
    tag: "Company settings",
    summary:
      "Saves the fob programmers (the spec does not show this path): fob_programmers lists the ids of the assigned ones; every other programmer of the company becomes available. 404 for an id outside the caller's company. Needs the modify right.",
    auth: "token",
    permission: { modules: SETTINGS_MODULE, action: "modify" },
    body: fobProgrammersSchema,
    response: z.object({ message: z.string() }),
    async handler({ db, auth, body, now }) {
      await fobs.saveFobProgrammers(db, auth, body, now);
      return { message: SETTINGS_MSG.fobsChanged };
    },
  }),
];
