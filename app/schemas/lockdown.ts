/**
 * Lockdown and evacuation plans (issue 31, decision 0083) in domain names: the console's forms post them,
 * the admin API's endpoint file reads its wire names into the same fields, the service takes them.
 */
import { z } from "zod";

export const LOCKDOWN_MODES = ["lockdown", "evacuation"] as const;
export const LOCKDOWN_SCOPES = ["company", "groups", "doors"] as const;
export type LockdownMode = (typeof LOCKDOWN_MODES)[number];
export type LockdownScope = (typeof LOCKDOWN_SCOPES)[number];

export const LOCKDOWN_MSG = {
  nameRequired: "Name is required",
  nameTooLong: "Name is too long (at most 100 characters)",
  mode: "Choose lockdown or evacuation",
  scope: "Choose the company, device groups or doors",
  scopeIdsRequired: "Choose at least one device group or door",
  badId: "Unknown device group, door, user or role",
  tooMany: "At most 200 entries",
  duration: "Duration is a number of minutes from 1 to 10080",
  created: "Plan created",
  modified: "Plan saved",
  deleted: "Plan deleted",
  notFound: "Plan not found",
  started: "Lockdown started",
  ended: "Lockdown ended",
  alreadyActive: "A lockdown is already in force; end it first",
  notActive: "No lockdown is in force",
  confirm: "Type the plan's name to confirm",
  unlockRefused: "Remote unlock is refused: this door is in lockdown",
  phoneConfirm: "Confirm the start: send confirm true",
  phoneNotAllowed: "This plan does not allow you to start it from the phone",
  phoneEndNotAllowed: "The lockdown in force does not allow you to end it from the phone",
} as const;

/** A list of ids from a JSON array, a form's repeated field (one value arrives as a string) or nothing. */
const ids = z.preprocess(
  (v) => (v === undefined || v === "" ? [] : Array.isArray(v) ? v : [v]),
  z
    .array(z.coerce.number({ invalid_type_error: LOCKDOWN_MSG.badId }).int(LOCKDOWN_MSG.badId).positive(LOCKDOWN_MSG.badId).max(Number.MAX_SAFE_INTEGER, LOCKDOWN_MSG.badId))
    .max(200, LOCKDOWN_MSG.tooMany),
);

const positiveId = z.coerce
  .number({ invalid_type_error: LOCKDOWN_MSG.notFound })
  .int(LOCKDOWN_MSG.notFound)
  .positive(LOCKDOWN_MSG.notFound)
  .max(Number.MAX_SAFE_INTEGER, LOCKDOWN_MSG.notFound);

/** The plan's fields (the admin API maps its wire names onto them); `lockdownPlanSchema` adds the rule across them. */
export const lockdownPlanFields = z.object({
  name: z
    .string({ required_error: LOCKDOWN_MSG.nameRequired, invalid_type_error: LOCKDOWN_MSG.nameRequired })
    .trim()
    .min(1, LOCKDOWN_MSG.nameRequired)
    .max(100, LOCKDOWN_MSG.nameTooLong),
  mode: z.enum(LOCKDOWN_MODES, { errorMap: () => ({ message: LOCKDOWN_MSG.mode }) }),
  scope: z.enum(LOCKDOWN_SCOPES, { errorMap: () => ({ message: LOCKDOWN_MSG.scope }) }),
  scopeIds: ids,
  exemptUserIds: ids,
  exemptRoleIds: ids,
  /** Doors whose wired panic button starts the plan (board event `panic.pressed`). */
  panicDoorIds: ids,
  /** Who may start the plan from the phone app: these users, and the users holding these roles. */
  phoneTriggerUserIds: ids,
  phoneTriggerRoleIds: ids,
  durationMinutes: z.preprocess(
    (v) => (v === undefined || v === "" || v === null ? null : v),
    z.coerce.number({ invalid_type_error: LOCKDOWN_MSG.duration }).int(LOCKDOWN_MSG.duration).min(1, LOCKDOWN_MSG.duration).max(10080, LOCKDOWN_MSG.duration).nullable(),
  ),
});
export const lockdownPlanSchema = lockdownPlanFields.refine((p) => p.scope === "company" || p.scopeIds.length > 0, { message: LOCKDOWN_MSG.scopeIdsRequired, path: ["scopeIds"] });
export type LockdownPlanInput = z.output<typeof lockdownPlanSchema>;

export const lockdownPlanModifySchema = z.intersection(z.object({ id: positiveId }), lockdownPlanSchema);
export type LockdownPlanModifyInput = z.output<typeof lockdownPlanModifySchema>;

export const lockdownPlanIdSchema = z.object({ id: positiveId });

/** The second step of a start: the plan, and its name typed again. */
export const lockdownStartSchema = z.object({
  id: positiveId,
  confirmName: z.string({ invalid_type_error: LOCKDOWN_MSG.confirm }).trim().max(100, LOCKDOWN_MSG.confirm).default(""),
});

/** A start from the phone app: the plan, and the second step of the phone's confirmation (`confirm: true`). */
export const lockdownPhoneStartSchema = z.object({
  planId: positiveId,
  confirm: z.literal(true, { errorMap: () => ({ message: LOCKDOWN_MSG.phoneConfirm }) }),
});
export type LockdownPhoneStartInput = z.output<typeof lockdownPhoneStartSchema>;
