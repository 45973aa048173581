import { z } from "zod";
import { assignBody } from "./ekeys";

/**
 * Bulk actions on selected rows (docs/decisions/0035-search-and-bulk-actions.md), one schema for the
 * list's form, the service and the admin API. A selection is 1..200 ids: the whole change is one D1
 * batch, and 200 rows (two statements each) stay well inside what one batch should carry.
 */
export const BULK_MAX = 200;

export const BULK_MSG = {
  none: "Select at least one row",
  tooMany: `Select at most ${BULK_MAX} rows at a time`,
  action: "Choose an action",
  group: "Please select a device group",
  device: "Please select a device",
  inactiveGroup: "This device group is deactivated: activate it before adding devices",
} as const;

/** Repeated form fields arrive as a list, a single one as a string; the API sends a JSON array. */
const idList = z.preprocess(
  (v) => (v == null || v === "" ? [] : Array.isArray(v) ? v : typeof v === "string" ? v.split(",") : [v]),
  z
    .array(z.coerce.number({ invalid_type_error: BULK_MSG.none }).int().positive().max(Number.MAX_SAFE_INTEGER), { invalid_type_error: BULK_MSG.none })
    .min(1, BULK_MSG.none)
    .max(BULK_MAX, BULK_MSG.tooMany)
    .transform((ids) => [...new Set(ids)]),
);

const optionalId = z.preprocess((v) => (v === "" ? undefined : v), z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional());

export const BULK_USER_ACTIONS = ["giveGroupKey", "giveDeviceKey", "deactivate", "reactivate", "invite"] as const;
export type BulkUserAction = (typeof BULK_USER_ACTIONS)[number];

/** The users list's bulk form: the action, the selected users, and the group or device a key is given on. */
export const bulkUsersSchema = z
  .object({
    action: z.enum(BULK_USER_ACTIONS, { errorMap: () => ({ message: BULK_MSG.action }) }),
    ids: idList,
    groupId: optionalId,
    deviceId: optionalId,
  })
  .superRefine((v, ctx) => {
    if (v.action === "giveGroupKey" && v.groupId == null) ctx.addIssue({ code: "custom", path: ["groupId"], message: BULK_MSG.group });
    if (v.action === "giveDeviceKey" && v.deviceId == null) ctx.addIssue({ code: "custom", path: ["deviceId"], message: BULK_MSG.device });
  });
export type BulkUsersInput = z.output<typeof bulkUsersSchema>;

/**
 * POST /user/bulkAssignKey: the assign body of /user/assignKeyToUser (eKey, type and the window) with
 * `userIds` (or `ids`) instead of one `userId`. Fobs identify one person, so none is given in bulk.
 */
export const bulkAssignBody = assignBody
  .omit({ userId: true, entryId: true, FOBDeviceId: true })
  .extend({ userIds: idList.optional(), ids: idList.optional() })
  .transform(({ userIds, ids, ...rest }, ctx) => {
    const list = userIds ?? ids;
    if (!list) {
      ctx.addIssue({ code: "custom", path: ["userIds"], message: BULK_MSG.none });
      return z.NEVER;
    }
    return { ...rest, userIds: list };
  });

/** POST /user/bulkSetInactive and /user/bulkResendInvite: `userIds` (or `ids`), and for the first `isInactive`. */
export const bulkUsersBody = z
  .object({
    userIds: idList.optional(),
    ids: idList.optional(),
    isInactive: z
      .union([z.boolean(), z.enum(["1", "0", "true", "false"]), z.literal(1), z.literal(0)])
      .transform((v) => v === true || v === 1 || v === "1" || v === "true")
      .default(true),
  })
  .transform(({ userIds, ids, isInactive }, ctx) => {
    const list = userIds ?? ids;
    if (!list) {
      ctx.addIssue({ code: "custom", path: ["userIds"], message: BULK_MSG.none });
      return z.NEVER;
    }
    return { userIds: list, isInactive };
  });

/** POST /deviceGroup/addDevicesToGroup and the group page's bulk form. */
export const addDevicesToGroupSchema = z.object({
  groupId: z.coerce.number({ invalid_type_error: BULK_MSG.group }).int().positive(BULK_MSG.group).max(Number.MAX_SAFE_INTEGER),
  deviceIds: idList,
});
export type AddDevicesToGroupInput = z.output<typeof addDevicesToGroupSchema>;

/** The group page's device picker: the company's devices outside the group, searched by name or serial and paged. */
export const PICKER_PAGE_SIZE = 20;
export const devicePickerQuery = z.object({
  groupId: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  q: z.preprocess((v) => (typeof v === "string" ? v.trim() : (v ?? "")), z.string().max(100)),
  page: z.preprocess((v) => (v == null || v === "" ? 1 : v), z.coerce.number().int().positive().max(10_000)),
});
export type DevicePickerQuery = z.output<typeof devicePickerQuery>;

/** What happened to one selected row. */
export const BULK_OUTCOMES = ["done", "already", "notFound", "refused", "notPending"] as const;
export type BulkOutcome = (typeof BULK_OUTCOMES)[number];
/** Why a row was refused, so the screen names the rule that stopped it. */
export type BulkRefusal = "superAdminOnly" | "notSelf";
export type BulkRowResult = { id: number; name: string | null; outcome: BulkOutcome; message: string; reason?: BulkRefusal };
