import { z } from "zod";

/**
 * Search and filters of the user and device-group lists (docs/decisions/0035-search-and-bulk-actions.md),
 * read from a page's URL and from the admin API's query. Lenient: an unknown or malformed filter is
 * ignored rather than refused, so an old bookmark or a hand-typed URL still opens the list.
 */
export const SEARCH_MAX = 100;

/**
 * `schema`, or `fallback` when the value does not fit it. A preprocess rather than `.catch()`, so the
 * OpenAPI generator can still describe the parameter.
 */
export function lenient<T extends z.ZodTypeAny>(schema: T, fallback: z.output<T>) {
  return z.preprocess((v) => (schema.safeParse(v).success ? v : fallback), schema);
}

/** The search box: trimmed, at most 100 characters; anything else is no search. */
export const searchText = z.preprocess((v) => (typeof v === "string" || typeof v === "number" ? String(v).trim().slice(0, SEARCH_MAX) : ""), z.string());

export const optionalId = lenient(z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional(), undefined);

export const USER_STATUSES = ["active", "inactive", "all"] as const;
export type UserStatusFilter = (typeof USER_STATUSES)[number];

/** Privilege flags a user list can filter on (the add/modify form's privileges box). */
export const USER_FLAGS = ["superAdmin", "admin", "installer", "soInterrupt", "fob"] as const;
export type UserFlagFilter = (typeof USER_FLAGS)[number];

export const userFiltersSchema = z.object({
  q: searchText,
  status: lenient(z.enum(USER_STATUSES), "active"),
  flag: lenient(z.enum(USER_FLAGS).optional(), undefined),
  roleId: optionalId,
  /** Only users holding a group key on this group. */
  groupId: optionalId,
});
export type UserFilters = z.output<typeof userFiltersSchema>;

/** The filters in a list URL; `hideInactive=0` (the list's older switch) means every status. */
export function userFiltersFromUrl(params: URLSearchParams): UserFilters {
  const status = params.get("status") ?? (params.get("hideInactive") === "0" ? "all" : undefined);
  return userFiltersSchema.parse({
    q: params.get("q") ?? undefined,
    status,
    flag: params.get("flag") ?? undefined,
    roleId: params.get("roleId") || undefined,
    groupId: params.get("groupId") || undefined,
  });
}
