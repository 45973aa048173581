/**
 * Company settings, scheduled-open hours and fob programmers (docs/ARCHITECTURE.md §7.2 and §8). The settings
 * form speaks domain names; the admin API's endpoint file reads the spec's names with the same field checks.
 * Scheduled-open times and dates are checked by the service through the access-window core.
 */
import { z } from "zod";
import { readsPostedStrings } from "~/utils/form-options";
import { callingCode, PHONE_INPUT_MAX, wireCallingCode } from "~/utils/phone";
import { checkbox, isOn } from "./flag";
import { HOLIDAY_MSG, ON_HOLIDAYS } from "./holidays";
import { checkPhonePair, phonePair } from "./phone";
import type { ScheduledOpenWindow, ValidationError } from "~core";

/** Days a company's activity log keeps at hand in its store; older entries are read from the archive (decision 0047). */
export const HOT_DAYS = { min: 7, max: 180, default: 90 } as const;
/** Days activity is kept at all when the company sets a limit; without one it is kept indefinitely. */
export const RETENTION_DAYS = { min: 1, max: 3650 } as const;
/** What happens to an entry past the retention: removed, or kept with the people in it removed. */
export const RETENTION_ACTIONS = ["delete", "anonymise"] as const;
export type RetentionAction = (typeof RETENTION_ACTIONS)[number];
/** The settings page's retention choice; "days" takes the number of days beside it. */
export const RETENTION_MODES = ["indefinitely", "days"] as const;

export const SETTINGS_MSG = {
  hours: "Choose from 1 to 24 hours",
  timeZone: "Time zone is required",
  countryCode: "Country code must be 1 to 3 digits",
  phone: "Contact phone must have at least 10 digits",
  phoneInvalid: "Contact phone is invalid",
  expiry: "Choose a password change interval",
  updated: "Company Settings Updated",
  scheduleChanged: "Default Scheduled Open Changed",
  fobsChanged: "Changed Fob Programmers",
  settingsFirst: "Save the company settings first",
  week: "The schedule needs one row for each day, Monday to Sunday",
  onHolidays: "Choose what the doors do on holidays",
  closeAfterOpen: "Close time must be after open time",
  bothTimes: "Open and close times are both required",
  time: "Time must be HH:mm",
  date: "Exception date is required or invalid",
  duplicateDate: "Only one exception per date",
  programmerNotFound: "Fob programmer not found",
  hotDays: `Choose from ${HOT_DAYS.min} to ${HOT_DAYS.max} days`,
  retentionDays: `Choose from ${RETENTION_DAYS.min} to ${RETENTION_DAYS.max} days`,
  retentionAction: "Choose delete or anonymise",
  windowTime: "Install window times must be HH:mm",
  windowBoth: "Set both ends of the install window, or neither",
  windowSame: "The install window must not start and end at the same time",
  deferDate: "Rollout opt-out date must be a date (YYYY-MM-DD)",
} as const;

const RESET_PHONE_MSG = { country: SETTINGS_MSG.phoneInvalid, number: SETTINGS_MSG.phoneInvalid, usNumber: SETTINGS_MSG.phone };

/** Months between forced password changes (Never, every month, 3, 6 months, every year). */
export const PASSWORD_EXPIRY_MONTHS = [0, 1, 3, 6, 12] as const;
export const FIRMWARE_CHOICES = ["All Users", "Installer Only"] as const;
export const RESET_METHODS = ["email", "text", "admin"] as const;
export const SECONDARY_ACTIONS = ["nothing", "alert", "flag"] as const;
export const MAX_EXCEPTIONS = 366;

/** A blank field clears the value. */
const blankIsNull = (v: unknown) => (typeof v === "string" && v.trim() === "" ? null : typeof v === "string" ? v.trim() : v);

/** The spec's '1'/'0', JSON booleans and HTML checkbox values; absent is off. */
const flag = checkbox();
/** The same, but absent keeps the stored value (fields the settings page does not show). */
const optionalFlag = z.preprocess((v) => (v === undefined || v === "" ? undefined : isOn(v)), z.boolean().optional());

/** A whole number of days within `range`; the message names the range. */
const days = (range: { min: number; max: number }, message: string) =>
  z.coerce.number({ invalid_type_error: message }).int(message).min(range.min, message).max(range.max, message);

const hours = z.coerce.number({ invalid_type_error: SETTINGS_MSG.hours }).int(SETTINGS_MSG.hours).min(1, SETTINGS_MSG.hours).max(24, SETTINGS_MSG.hours);

/** Each setting's check, shared by the page's schema and the admin API's body in the spec's names. */
export const settingsField = {
  flag,
  optionalFlag,
  hours,
  timeZoneId: z.coerce.number({ required_error: SETTINGS_MSG.timeZone, invalid_type_error: SETTINGS_MSG.timeZone }).int().positive(SETTINGS_MSG.timeZone),
  // Any usual shape ('001', '+34', '34', 'ES'); kept in the spec's shape ('034').
  countryCode: z
    .string({ required_error: SETTINGS_MSG.countryCode })
    .trim()
    .max(8, SETTINGS_MSG.countryCode)
    .refine((v) => callingCode(v) !== null, SETTINGS_MSG.countryCode)
    .transform((v) => wireCallingCode(callingCode(v) ?? "")),
  firmware: z.enum(FIRMWARE_CHOICES).default("All Users"),
  expiryMonths: z.coerce.number({ invalid_type_error: SETTINGS_MSG.expiry }).refine((n) => (PASSWORD_EXPIRY_MONTHS as readonly number[]).includes(n), SETTINGS_MSG.expiry),
  resetMethod: z.enum(RESET_METHODS).default("email"),
  secondaryAction: z.enum(SECONDARY_ACTIONS).default("nothing"),
  resetPhone: z.string().trim().max(PHONE_INPUT_MAX, SETTINGS_MSG.phoneInvalid).default(""),
  /** The contact phone's country (the console's picker); without it, the company's default country. */
  resetPhoneCountry: z.string().trim().max(8).optional(),
  // The activity log's policy: absent keeps the stored value (API callers and pages from before it).
  hotDays: days(HOT_DAYS, SETTINGS_MSG.hotDays).optional(),
  /** null keeps activity indefinitely. */
  retentionDays: days(RETENTION_DAYS, SETTINGS_MSG.retentionDays).nullable().optional(),
  retentionAction: z.enum(RETENTION_ACTIONS, { errorMap: () => ({ message: SETTINGS_MSG.retentionAction }) }).optional(),
  // Staged rollouts (decision 0094): absent keeps the stored value, empty clears it.
  windowTime: z.preprocess(
    blankIsNull,
    z
      .string()
      .regex(/^([01]\d|2[0-3]):[0-5]\d$/, SETTINGS_MSG.windowTime)
      .nullable()
      .optional(),
  ),
  deferDate: z.preprocess(
    blankIsNull,
    z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, SETTINGS_MSG.deferDate)
      .refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d), SETTINGS_MSG.deferDate)
      .nullable()
      .optional(),
  ),
};

/** The settings fields one by one; the admin API reads the same fields in the spec's names (`wireObject`). */
export const companySettingsFields = z.object({
  multiPhoneLogin: flag,
  offlineReconnect: hours,
  scheduleOpen: flag,
  defaultTimeZoneId: settingsField.timeZoneId,
  ekeyDuration: hours,
  defaultCountryCode: settingsField.countryCode,
  allowedFirmware: settingsField.firmware,
  forceFirmwareUpdate: optionalFlag,
  fpi: optionalFlag,
  passwordExpiryMonths: settingsField.expiryMonths,
  biometricSecurity: flag,
  require2fa: flag,
  passwordResetSecurity: settingsField.resetMethod,
  passwordResetSecondaryAction: settingsField.secondaryAction,
  passwordResetPhone: settingsField.resetPhone,
  passwordResetPhoneCountry: settingsField.resetPhoneCountry,
  activityHotDays: settingsField.hotDays,
  activityRetentionDays: settingsField.retentionDays,
  activityRetentionAction: settingsField.retentionAction,
  /** Alert recipients may be texted (decision 0073). The API's absent keeps the stored value; the page posts its switch. */
  alertTexts: optionalFlag,
  firmwareWindowStart: settingsField.windowTime,
  firmwareWindowEnd: settingsField.windowTime,
  rolloutDeferredUntil: settingsField.deferDate,
});
type CompanySettingsFields = z.output<typeof companySettingsFields>;
export type SettingsKey = keyof CompanySettingsFields;

/** The admin mode needs a contact phone, read in its country (or the default one); `name` gives a field's name in the checked body. */
export function checkResetPhone(v: CompanySettingsFields, ctx: z.RefinementCtx, name: (key: SettingsKey) => string = (k) => k) {
  if (v.passwordResetSecurity !== "admin") return;
  if (!v.passwordResetPhone) return ctx.addIssue({ code: "custom", path: [name("passwordResetPhone")], message: SETTINGS_MSG.phone });
  const keys = { country: name("passwordResetPhoneCountry"), number: name("passwordResetPhone") };
  checkPhonePair({ [keys.country]: v.passwordResetPhoneCountry || v.defaultCountryCode, [keys.number]: v.passwordResetPhone }, ctx, keys, RESET_PHONE_MSG);
}

/** An install window has both ends or none, and they differ (one that runs past midnight is fine). */
export function checkFirmwareWindow(v: CompanySettingsFields, ctx: z.RefinementCtx, name: (key: SettingsKey) => string = (k) => k) {
  const start = v.firmwareWindowStart;
  const end = v.firmwareWindowEnd;
  if (start === undefined && end === undefined) return;
  if (((start ?? null) === null) !== ((end ?? null) === null))
    return ctx.addIssue({ code: "custom", path: [name(start ? "firmwareWindowEnd" : "firmwareWindowStart")], message: SETTINGS_MSG.windowBoth });
  if (start && start === end) ctx.addIssue({ code: "custom", path: [name("firmwareWindowEnd")], message: SETTINGS_MSG.windowSame });
}

/** The extra field belongs to its mode only (text: secondary action, admin: contact phone, stored as E.164, decision 0037). */
export const keepModeFields = (v: CompanySettingsFields) => ({
  ...v,
  passwordResetSecondaryAction: v.passwordResetSecurity === "text" ? v.passwordResetSecondaryAction : ("nothing" as const),
  passwordResetPhone: v.passwordResetSecurity === "admin" ? phonePair(v.passwordResetPhoneCountry || v.defaultCountryCode, v.passwordResetPhone).e164 : "",
});

/**
 * The settings page's form; the service takes its value. The page posts a retention choice beside the
 * days: "indefinitely" stores null whatever the days say, "days" needs them. The page shows force
 * firmware update, so there an unticked switch (nothing posted) is off.
 */
export const companySettingsSchema = companySettingsFields
  // The page's switches post nothing when off.
  .extend({ activityRetentionMode: z.enum(RETENTION_MODES).optional(), alertTexts: flag, forceFirmwareUpdate: flag })
  .superRefine((v, ctx) => {
    checkResetPhone(v, ctx);
    checkFirmwareWindow(v, ctx);
    if (v.activityRetentionMode === "days" && v.activityRetentionDays == null) {
      ctx.addIssue({ code: "custom", path: ["activityRetentionDays"], message: SETTINGS_MSG.retentionDays });
    }
  })
  .transform(({ activityRetentionMode, ...v }) => keepModeFields(activityRetentionMode === "indefinitely" ? { ...v, activityRetentionDays: null } : v));
export type CompanySettingsInput = z.infer<typeof companySettingsSchema>;

/** `HH:mm` (a trailing `:ss` is dropped); anything else reaches the core, which names the problem. */
const time = z.preprocess((v) => (typeof v === "string" ? v.trim().replace(/^(\d{2}:\d{2}):\d{2}$/, "$1") : v == null ? "" : v), z.string());

const dayRow = z.object({
  /** 0 = Monday … 6 = Sunday. */
  scheduleDay: z.coerce.number().int().min(0).max(6),
  openWholeDay: flag,
  openTime: time,
  closeTime: time,
});
const exceptionRow = z.object({
  exceptionDate: z.preprocess((v) => (v == null ? "" : v), z.string().trim()),
  openWholeDay: flag,
  openTime: time,
  closeTime: time,
});
export type ScheduleDayInput = z.infer<typeof dayRow>;
export type ScheduleExceptionInput = z.infer<typeof exceptionRow>;

/** Unchecking a day (or an exception) clears its times (docs/ARCHITECTURE.md §7.2). */
const clearUnchecked = <T extends { openWholeDay: boolean; openTime: string; closeTime: string }>(r: T): T => (r.openWholeDay ? r : { ...r, openTime: "", closeTime: "" });

export const scheduleOpenSchema = readsPostedStrings(
  z
    .object({
      fpi: flag,
      schedule_opens: z.array(dayRow, { required_error: SETTINGS_MSG.week }),
      schedule_exceptions: z.array(exceptionRow).max(MAX_EXCEPTIONS).default([]),
      // What the doors do on a holiday of a calendar (decision 0077); left out, the stored choice stays.
      on_holidays: z.preprocess((v) => (v === "" ? undefined : v), z.enum(ON_HOLIDAYS, { errorMap: () => ({ message: SETTINGS_MSG.onHolidays }) }).optional()),
      holiday_calendar_id: z.preprocess(
        (v) => (v === "" ? null : v),
        z.coerce
          .number({ invalid_type_error: HOLIDAY_MSG.notFound })
          .int(HOLIDAY_MSG.notFound)
          .positive(HOLIDAY_MSG.notFound)
          .max(Number.MAX_SAFE_INTEGER, HOLIDAY_MSG.notFound)
          .nullable()
          .optional(),
      ),
    })
    .superRefine((v, ctx) => {
      const days = new Set(v.schedule_opens.map((d) => d.scheduleDay));
      if (v.schedule_opens.length !== 7 || days.size !== 7) ctx.addIssue({ code: "custom", path: ["schedule_opens"], message: SETTINGS_MSG.week });
    })
    .transform((v) => ({
      fpi: v.fpi,
      schedule_opens: [...v.schedule_opens].sort((a, b) => a.scheduleDay - b.scheduleDay).map(clearUnchecked),
      schedule_exceptions: v.schedule_exceptions.map(clearUnchecked),
      on_holidays: v.on_holidays,
      holiday_calendar_id: v.holiday_calendar_id,
    })),
);
export type ScheduleOpenInput = z.infer<typeof scheduleOpenSchema>;

/** The assigned programmers' ids; every other programmer of the company becomes available. */
export const fobProgrammersSchema = z.object({
  fob_programmers: z.array(z.coerce.number().int().positive()).max(500).default([]),
});
export type FobProgrammersInput = z.infer<typeof fobProgrammersSchema>;

/** Field-error keys of the schedule form: `schedule_opens.2.closeTime`, `schedule_exceptions.0.exceptionDate`. */
export const scheduleErrorKey = (path: (string | number)[]) => path.join(".");

/** The access window the core validates and the gateways evaluate (docs/ARCHITECTURE.md §5). */
export function scheduleWindow(input: ScheduleOpenInput, tz: string): ScheduledOpenWindow {
  return {
    kind: "scheduledOpen",
    tz,
    fpi: input.fpi,
    firstEntryAt: null,
    week: input.schedule_opens.map(({ openWholeDay, openTime, closeTime }) => ({ openWholeDay, openTime, closeTime })),
    exceptions: input.schedule_exceptions.map((e) => ({ date: e.exceptionDate, openWholeDay: e.openWholeDay, openTime: e.openTime, closeTime: e.closeTime })),
  };
}

const CORE_MESSAGE: Record<string, string> = {
  "closeTime.notAfterOpen": SETTINGS_MSG.closeAfterOpen,
  "openTime.missing": SETTINGS_MSG.bothTimes,
  "closeTime.missing": SETTINGS_MSG.bothTimes,
  "openTime.invalid": SETTINGS_MSG.time,
  "closeTime.invalid": SETTINGS_MSG.time,
  "date.missing": SETTINGS_MSG.date,
  "date.invalid": SETTINGS_MSG.date,
  "date.duplicate": SETTINGS_MSG.duplicateDate,
  "week.invalid": SETTINGS_MSG.week,
  "week.missing": SETTINGS_MSG.week,
};
const CORE_FIELD: Record<string, string> = { week: "schedule_opens", exceptions: "schedule_exceptions", date: "exceptionDate" };

/** Core errors (`week[2].closeTime`, `exceptions[0].date`) → form keys with the console's messages. */
export function scheduleErrors(errors: ValidationError[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const e of errors) {
    const path = e.field
      .split(/[.[\]]+/)
      .filter(Boolean)
      .map((p) => CORE_FIELD[p] ?? p);
    const key = path.length ? path.join(".") : "_";
    const message = CORE_MESSAGE[e.code] ?? e.message;
    if (!out[key]?.includes(message)) (out[key] ??= []).push(message);
  }
  return out;
}
