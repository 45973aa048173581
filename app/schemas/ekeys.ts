import { z } from "zod";
import { readsPostedStrings } from "~/utils/form-options";
import { FOB_NUMBER_MAX } from "./text";
import { ON_HOLIDAYS } from "./holidays";
import type { Days, EKeyWindow, HolidayFields, ValidationError } from "~core";

/**
 * E-key assignment (docs/ARCHITECTURE.md §7.2 for the rules, §8 for the assign payload). The form, the
 * service and the admin API build the same access window (docs/ARCHITECTURE.md §5) with `toWindow` and let the
 * core validate it; `windowErrors` maps the core's codes to the spec's messages.
 */
export const ACCESS_TYPES = ["full_access", "custom_access", "one_time_access"] as const;
export type AccessType = (typeof ACCESS_TYPES)[number];

export const EKEY_MSG = {
  keyRequired: "Please select an eKey or group",
  startDate: "Start date is required or invalid",
  endDate: "End date is required or invalid",
  times: "Start and End time are required",
  zone: "Time zone is required",
  days: "Please select at least one day",
  assigned: "eKeys/Groups Assigned successfully",
  modified: "eKeys Modified successfully",
  removed: "ekey removed successfully",
  notFound: "eKey not found",
  notYourDevice: "This device does not belong to your company",
  fobTaken: "This fob number is already given to another user in this company",
  fobNumber: `The fob number may have at most ${FOB_NUMBER_MAX} letters, digits, spaces, '-', '_', '.' or ':'`,
} as const;

const flag = z.union([z.boolean(), z.enum(["1", "0", "true", "false"]), z.literal(1), z.literal(0)]).transform((v) => v === true || v === 1 || v === "1" || v === "true");

/** Seven booleans Monday first, or the stored form: seven 0/1 characters. */
const scheduleDays = z
  .union([z.array(z.union([z.boolean(), z.literal(0), z.literal(1)])).length(7), z.string().regex(/^[01]{7}$/)])
  .transform((v) => (typeof v === "string" ? [...v].map((c) => c === "1") : v.map(Boolean)) as Days);

/** An optional record id: empty or absent is null; anything else must be a positive whole number (400 otherwise). */
const optionalId = (name: string) =>
  z
    .union([z.string(), z.number()], { invalid_type_error: `${name} must be a number` })
    .nullish()
    .transform((v, ctx) => {
      if (v == null || (typeof v === "string" && v.trim() === "")) return null;
      const n = typeof v === "number" ? v : /^\s*\d+\s*$/.test(v) ? Number(v) : NaN;
      if (!Number.isSafeInteger(n) || n <= 0) {
        ctx.addIssue({ code: "custom", message: `${name} must be a positive whole number` });
        return z.NEVER;
      }
      return n;
    });

const optionalText = z
  .string()
  .nullish()
  .transform((s) => (s ? s.trim() : null) || null);

/** `HH:mm` or `HH:mm:ss` → `HH:mm`. */
const time = optionalText.transform((s) => (s && /^\d{2}:\d{2}(:\d{2})?$/.test(s) ? s.slice(0, 5) : s));

const userId = z.coerce.number({ invalid_type_error: "userId is required" }).int().positive("userId is required");

/** A fob number: letters, digits and a few separators; empty is none. */
const fobNumber = z
  .union([z.string(), z.number()])
  .nullish()
  .transform((v) => (v == null ? "" : String(v).trim()))
  .pipe(
    z
      .string()
      .max(FOB_NUMBER_MAX, EKEY_MSG.fobNumber)
      .regex(/^[A-Za-z0-9 _.:-]*$/, EKEY_MSG.fobNumber),
  )
  .transform((v) => v || null);

/** The window's fields, the same in the form and in the spec's body. */
const windowFields = {
  startDate: optionalText,
  startTime: time,
  endDate: optionalText,
  endTime: time,
  accessType: z.enum(ACCESS_TYPES).default("full_access"),
  isNeverEnd: flag.default(true),
  isAllDay: flag.default(true),
  /** The holiday calendar the key follows and how (decision 0077); "ignore" needs none. */
  onHolidays: z.enum(ON_HOLIDAYS).default("ignore"),
  holidayCalendarId: optionalId("holidayCalendarId"),
};

/** POST /user/assignKeyToUser body (spec names); its endpoint maps it to a `KeyAssignment`. */
export const assignBody = z.object({
  userId,
  eKey: optionalId("eKey"),
  type: z.enum(["device", "group"]).default("device"),
  status: z.union([z.string(), z.number()]).nullish(),
  FOBDeviceId: fobNumber,
  ...windowFields,
  entryId: optionalId("entryId"),
  scheduleDays: scheduleDays.default("1111111"),
  zone: optionalId("zone"),
});
export type AssignBody = z.output<typeof assignBody>;

/**
 * A key given to a user, as the e-key panel posts it and the service takes it: the device or group
 * (`keyId`), its window with the days Monday first, the fob number. The status (one-time or not) is
 * the service's to derive from the access type.
 */
export const keyAssignmentSchema = readsPostedStrings(
  z.object({
    userId,
    entryId: optionalId("entryId"),
    type: z.enum(["device", "group"]).default("device"),
    keyId: optionalId("keyId"),
    fobNumber,
    ...windowFields,
    days: z
      .array(flag)
      .length(7)
      .transform((v) => v as Days)
      .default([true, true, true, true, true, true, true]),
    zone: optionalId("zone"),
  }),
);
export type KeyAssignment = z.output<typeof keyAssignmentSchema>;
/** What a key gives, whoever it is for (one user's assignment, or the bulk one). */
export type KeySpec = Omit<KeyAssignment, "userId" | "entryId" | "fobNumber">;

/** The schedule part of an assignment, as stored and as the form holds it. */
export type Schedule = {
  accessType: AccessType;
  startDate: string | null;
  endDate: string | null;
  startTime: string | null;
  endTime: string | null;
  days: Days;
  isNeverEnd: boolean;
  isAllDay: boolean;
};

/**
 * The access window of an assignment. Required-but-missing values are passed as "" so the core
 * reports them (a null start date would otherwise mean "no lower bound").
 */
export function toWindow(s: Schedule, tz: string | null, used = false, holidays: HolidayFields = {}): EKeyWindow {
  if (s.accessType === "full_access") return { kind: "ekey", access: "full", tz: tz || "UTC", ...holidays };
  return {
    ...holidays,
    kind: "ekey",
    access: s.accessType === "one_time_access" ? "oneTime" : "custom",
    tz: tz ?? "",
    startDate: s.startDate ?? "",
    endDate: s.isNeverEnd ? null : (s.endDate ?? ""),
    days: s.days,
    allDay: s.isAllDay,
    startTime: s.isAllDay ? null : (s.startTime ?? ""),
    endTime: s.isAllDay ? null : (s.endTime ?? ""),
    used,
  };
}

const FIELD_MESSAGE: Record<string, keyof typeof EKEY_MSG> = {
  startDate: "startDate",
  endDate: "endDate",
  startTime: "times",
  endTime: "times",
  tz: "zone",
  days: "days",
};

/** Core validation errors → the spec's messages by form field (`zone` for the time zone). */
export function windowErrors(errors: ValidationError[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const e of errors) {
    const key = FIELD_MESSAGE[e.field.split(/[.[]/)[0]];
    if (!key) continue;
    const field = key === "zone" ? "zone" : key === "times" ? "startTime" : e.field;
    if (!out[field]?.includes(EKEY_MSG[key])) (out[field] ??= []).push(EKEY_MSG[key]);
  }
  return out;
}

export const daysToText = (d: readonly boolean[]) => d.map((b) => (b ? "1" : "0")).join("");
export const textToDays = (s: string | null | undefined) => [...(s ?? "1111111").padEnd(7, "0").slice(0, 7)].map((c) => c === "1") as Days;

export const ALL_DAYS: Days = [true, true, true, true, true, true, true];

/** docs/ARCHITECTURE.md §7.2: custom and one-time start today, all days, never ends, all day; full clears the schedule. */
export function scheduleForAccess(accessType: AccessType, today: string): Schedule {
  if (accessType === "full_access") return { accessType, startDate: null, endDate: null, startTime: null, endTime: null, days: ALL_DAYS, isNeverEnd: true, isAllDay: true };
  return { accessType, startDate: today, endDate: null, startTime: null, endTime: null, days: ALL_DAYS, isNeverEnd: true, isAllDay: true };
}

/** Checked by the service, which answers 422 for a malformed or unknown entry (docs/ARCHITECTURE.md §7.2). */
export const entryIdQuery = z.object({ entryId: z.string().optional() });
export const userIdQuery = z.object({ userId: z.coerce.number({ invalid_type_error: "userId must be a number" }).int().positive() });
export const getEkeysQuery = userIdQuery.extend({ type: z.enum(["device", "group"]).default("device") });
