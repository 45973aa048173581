import { z } from "zod";
import { bulkAssignBody, bulkUsersBody, type BulkRowResult } from "~/schemas/bulk";
import { fieldFilterParams } from "~/schemas/custom-fields";
import { lenient, optionalId, USER_FLAGS, USER_STATUSES, searchText } from "~/schemas/search";
import { assignBody, entryIdQuery, getEkeysQuery, userIdQuery, type AssignBody, type KeySpec } from "~/schemas/ekeys";
import { addUserBody, flaggedUserBody, fromApiBody, idQuery, modifyUserBody, twoFactorChannelSchema, userIdBody } from "~/schemas/users";
import * as ekeys from "~/services/ekeys.server";
import * as users from "~/services/users.server";
import * as bulk from "~/services/users-bulk.server";
import type { Auth } from "~/utils/auth-guards.server";
import { publicOrigin } from "~/utils/origin.server";
import { splitPhone } from "~/utils/phone";
import { eraseUserActivity } from "~/services/activity-erasure.server";
import { bit, bitShape } from "../flags.server";
import { endpoint } from "../define.server";
import { deliveringMessages } from "../message-delivery.server";
import { wireObject, withWireFields } from "../wire-fields.server";

/** The key of an assign body in domain names: `eKey` is the device or group, `scheduleDays` the days; `status` is derived, not read. */
const keySpecOfBody = (b: Omit<AssignBody, "userId" | "entryId" | "FOBDeviceId">): KeySpec => ({
  type: b.type,
  keyId: b.eKey,
  accessType: b.accessType,
  startDate: b.startDate,
  startTime: b.startTime,
  endDate: b.endDate,
  endTime: b.endTime,
  isNeverEnd: b.isNeverEnd,
  isAllDay: b.isAllDay,
  days: b.scheduleDays,
  zone: b.zone,
  onHolidays: b.onHolidays,
  holidayCalendarId: b.holidayCalendarId,
});
/** An assignment's domain fields in the spec's names; field errors go back under these. */
const KEY_WIRE = { keyId: "eKey", fobNumber: "FOBDeviceId" } as const;

const CHANNEL_WIRE = { channel: "two_factor_channel" } as const;

const flagQuery = z.union([z.boolean(), z.enum(["true", "false", "1", "0"])]).transform((v) => v === true || v === "true" || v === "1");

const userListRow = z.object({
  id: z.number(),
  dispay_name: z.string(),
  e_mail: z.string(),
  phone_number: z.string(),
  country_code: z.string(),
  role_id: z.number().nullable(),
  comp_id: z.number(),
  company: z.object({ company_name: z.string(), company_id: z.string() }),
  company_type: z.string(),
  is_installer: z.boolean(),
  is_sentinel: z.boolean(),
  is_inactive: z.boolean(),
  isSOInterrupt: z.boolean(),
  isSuperAdmin: z.boolean(),
  lastActivity: z.number().nullable(),
  custom_fields: z
    .record(z.string(), z.string())
    .describe("The company's custom fields by key (decision 0095): text, a number, a date YYYY-MM-DD or one of a choice field's choices"),
});

const userDetailsShape = z.object({
  id: z.number(),
  firstName: z.string(),
  lastName: z.string(),
  displayName: z.string(),
  email: z.string(),
  countryCode: z.string(),
  cell: z.string(),
  user_notes: z.string(),
  isSentinel: z.boolean(),
  isSuperAdmin: z.boolean(),
  isInstaller: z.boolean(),
  isFob: z.boolean(),
  isInactive: z.boolean(),
  isSOInterrupt: z.boolean(),
  company: z.object({ company_name: z.string(), company_id: z.string() }),
  is_flagged: bitShape,
  support_ticket_id: z.number().nullable(),
  accountSetupPending: z.boolean(),
  lastActivity: z.number().nullable(),
  is_multi_phone_login: z.boolean(),
  password_reset_security: z.enum(["email", "text", "admin"]),
  password_reset_requested_at: z.number().nullable().describe("Reset mode 'admin': when the user's waiting reset request was made (ms)"),
  two_factor_channel: z.enum(["email", "text"]).describe("Where the user's sign-in codes go, their own choice"),
  custom_fields: z
    .record(z.string(), z.string())
    .describe("The company's custom fields by key (decision 0095): text, a number, a date YYYY-MM-DD or one of a choice field's choices"),
});
const dayFlags = z.array(z.boolean()).describe("Seven days, Monday first");
const groupScheduleShape = z.object({
  sch_monday: z.boolean(),
  sch_tuesday: z.boolean(),
  sch_wednesday: z.boolean(),
  sch_thursday: z.boolean(),
  sch_friday: z.boolean(),
  sch_saturday: z.boolean(),
  sch_sunday: z.boolean(),
  start_at: z.string().nullable(),
  end_at: z.string().nullable(),
});
const assignedEkeyShape = groupScheduleShape.partial().extend({
  entry_id: z.number(),
  is_group: z.boolean(),
  ekeyDetails: z.object({ id: z.number(), full_name: z.string() }).nullable().describe("The key's device; null for a group key"),
  deviceGroup: z.object({ id: z.number(), full_name: z.string() }).nullable(),
  ekeyStatus: z.object({ title: z.string(), img: z.string() }),
  access_type: z.enum(["full_access", "custom_access", "one_time_access"]),
  status: z.string().describe("'2' for a one-time key, '1' otherwise"),
  start_date: z.string().nullable(),
  end_date: z.string().nullable(),
  start_time: z.string().nullable(),
  end_time: z.string().nullable(),
  schedule_days: dayFlags,
  is_never_end: z.boolean(),
  is_all_day: z.boolean(),
  time_zone_id: z.number().nullable(),
  time_zone: z.string().nullable().describe("The key's zone, else its group's"),
  FOBDeviceId: z.string().nullable(),
  used: z.boolean(),
  group_id: z.number().nullable(),
  group_name: z.string().nullable(),
  group_is_all_day: z.boolean().optional(),
  group_time_zone_id: z.number().nullable().optional(),
});
const keyOptionShape = z.object({ id: z.number(), full_name: z.string(), display_name: z.string() });
const groupOptionShape = keyOptionShape.merge(groupScheduleShape).extend({ is_all_day: z.boolean(), time_zone_id: z.number().nullable(), time_zone: z.string().nullable() });

/** The user list's row in the spec's names (decision 0017). */
function userListPayload(r: users.UserListRow, auth: Auth) {
  return {
    id: r.id,
    dispay_name: r.displayName,
    e_mail: r.email,
    // Stored as E.164 (decision 0037); the spec's pair is derived from it.
    phone_number: splitPhone(r.phoneNumber).phoneNumber,
    country_code: splitPhone(r.phoneNumber).countryCode,
    role_id: r.roleId,
    comp_id: r.companyId,
    company: { company_name: auth.company.name, company_id: auth.company.code },
    company_type: auth.company.type,
    is_installer: r.isInstaller,
    is_sentinel: r.isSentinel,
    is_inactive: r.isInactive,
    isSOInterrupt: r.isSoInterrupt,
    isSuperAdmin: r.isSuperAdmin,
    lastActivity: r.lastActivityAt,
    custom_fields: r.customFields,
  };
}

/** One user in the user form's names, flagged as '1'/'0', plus the settings the console's buttons need. */
function userDetailsPayload(d: users.UserDetails, auth: Auth) {
  return {
    id: d.id,
    firstName: d.firstName,
    lastName: d.lastName,
    displayName: d.displayName,
    email: d.email,
    countryCode: splitPhone(d.phoneNumber).countryCode,
    cell: splitPhone(d.phoneNumber).phoneNumber,
    user_notes: d.notes,
    isSentinel: d.isSentinel,
    isSuperAdmin: d.isSuperAdmin,
    isInstaller: d.isInstaller,
    isFob: d.isFob,
    isInactive: d.isInactive,
    isSOInterrupt: d.isSoInterrupt,
    company: { company_name: auth.company.name, company_id: auth.company.code },
    is_flagged: bit(d.isFlagged),
    support_ticket_id: d.supportTicketId,
    accountSetupPending: d.accountSetupPending,
    lastActivity: d.lastActivityAt,
    is_multi_phone_login: d.isMultiPhoneLogin,
    password_reset_security: d.passwordResetSecurity,
    /** Reset mode 'admin': when the user's waiting reset request was made (ms), or null. */
    password_reset_requested_at: d.passwordResetRequestedAt,
    /** Where the user's sign-in codes go, their own choice: 'email' or 'text'. */
    two_factor_channel: d.twoFactorChannel,
    custom_fields: d.customFields,
  };
}

/** A group's weekly schedule in the spec's names. */
const groupSchedulePayload = (s: ekeys.GroupScheduleRow) => ({
  sch_monday: s.days[0],
  sch_tuesday: s.days[1],
  sch_wednesday: s.days[2],
  sch_thursday: s.days[3],
  sch_friday: s.days[4],
  sch_saturday: s.days[5],
  sch_sunday: s.days[6],
  start_at: s.startAt,
  end_at: s.endAt,
});

/** One of a user's keys in the spec's names (getAssignedEkeys). */
function assignedEkeyPayload(k: ekeys.AssignedEkey) {
  const group = k.group;
  return {
    entry_id: k.entryId,
    is_group: k.isGroup,
    ekeyDetails: k.device ? { id: k.device.id, full_name: k.device.fullName } : null,
    deviceGroup: group ? { id: group.id, full_name: group.fullName } : null,
    ekeyStatus: k.keyStatus,
    access_type: k.accessType,
    status: k.status,
    start_date: k.startDate,
    end_date: k.endDate,
    start_time: k.startTime,
    end_time: k.endTime,
    schedule_days: k.days,
    is_never_end: k.isNeverEnd,
    is_all_day: k.isAllDay,
    time_zone_id: k.timeZoneId,
    time_zone: k.timeZone,
    FOBDeviceId: k.fobDeviceId,
    used: k.used,
    group_id: group?.id ?? null,
    group_name: group?.fullName ?? null,
    ...(group && { ...groupSchedulePayload(group), group_is_all_day: group.isAllDay, group_time_zone_id: group.timeZoneId }),
  };
}

const keyOptionPayload = (o: ekeys.DeviceKeyOption) => ({ id: o.id, full_name: o.fullName, display_name: o.displayName });
const groupOptionPayload = (o: ekeys.GroupKeyOption) => ({
  ...keyOptionPayload(o),
  ...groupSchedulePayload(o),
  is_all_day: o.isAllDay,
  time_zone_id: o.timeZoneId,
  time_zone: o.timeZone,
});

const message = z.object({ message: z.string() });

/**
 * getAllUsers' optional search (decision 0035), read leniently: `q` (or `search`), `status`
 * (active | inactive | all), `flag` (superAdmin | admin | installer | soInterrupt | fob), `roleId`, `groupId`.
 * Unknown values are ignored, so the spec's plain call is unchanged. The custom field filters (`field.<key>`) are
 * read by the handler and checked strictly: a caller who names a field expects the list filtered by it.
 */
const userSearchQuery = z.object({
  includeInactive: flagQuery.default("false"),
  q: searchText.optional(),
  search: searchText.optional(),
  status: lenient(z.enum(USER_STATUSES).optional(), undefined),
  flag: lenient(z.enum(USER_FLAGS).optional(), undefined),
  roleId: optionalId,
  groupId: optionalId,
});

/** A bulk action's answer: one row per selected id with what happened to it. */
const bulkPayload = (rows: BulkRowResult[]) => rows.map((r) => ({ id: r.id, name: r.name, result: r.outcome, message: r.message }));
const bulkResponse = z.object({
  message: z.string(),
  payload: z.array(z.object({ id: z.number(), name: z.string().nullable(), result: z.string(), message: z.string() })),
});
const bulkMessage = (rows: BulkRowResult[]) => `${rows.filter((r) => r.outcome === "done").length} of ${rows.length} done`;
const origin = (env: Env, request: Request) => publicOrigin(env, request);
const tag = "Users";

export const usersEndpoints = [
  endpoint({
    method: "GET",
    path: "/user/getAllUsers",
    tag,
    summary:
      "The company's users (inactive ones only with includeInactive=true), sorted by display name. Optional: q (name, e-mail or phone prefix), status, flag, roleId, groupId, and field.<key>=<value> per custom field (decision 0095): only users whose field holds that value (a choice or a text in any case, a number however written, a date YYYY-MM-DD), or with field.<key>=- those without a value; an unknown key or a value the field could not hold is 400 ('field.<key>: Choose one of the field's choices', 'field.<key>: Enter a number'). Filters combine with AND.",
    auth: "token",
    permission: { modules: "users" },
    query: userSearchQuery,
    response: z.object({ payload: z.array(userListRow) }),
    async handler({ db, auth, query, request }) {
      const filters = {
        q: query.q || query.search || "",
        status: query.status ?? (query.includeInactive ? "all" : "active"),
        flag: query.flag,
        roleId: query.roleId,
        groupId: query.groupId,
      };
      // The field.<key> parameters are named by the company's own keys, so they are read from the address, not the query schema.
      const fieldFilters = fieldFilterParams(new URL(request.url).searchParams);
      const { rows } = await users.listUsers(db, auth, { includeInactive: query.includeInactive, filters, fieldFilters, strictFieldFilters: true });
      return { payload: rows.map((r) => userListPayload(r, auth)) };
    },
  }),
  endpoint({
    method: "GET",
    path: "/user/getUserDetails",
    tag,
    summary: "One user in the form shape (404 outside the caller's company).",
    auth: "token",
    permission: { modules: "users" },
    query: idQuery,
    response: z.object({ payload: userDetailsShape }),
    async handler({ db, auth, query }) {
      return { payload: userDetailsPayload(await users.getUserDetails(db, auth, query.id), auth) };
    },
  }),
  endpoint({
    method: "DELETE",
    path: "/user/deleteUser",
    tag,
    summary: "Removes a user and their e-keys ('Removed User').",
    auth: "token",
    permission: { modules: "users", action: "delete" },
    query: idQuery,
    response: message,
    async handler({ db, auth, query, now }) {
      return await users.deleteUser(db, auth, query.id, now);
    },
  }),
  endpoint({
    method: "POST",
    path: "/user/eraseUserActivity",
    tag,
    summary:
      "Erases a person's activity on request (GDPR): every entry of the company's log that names user `userId` as actor or target, the notes on those entries and the notes they wrote. Needs the users module's delete right; the user may already be removed. Records 'User Activity Erased' with the number of entries and nothing erased. 404 outside the caller's company, 422 for the caller's own activity.",
    auth: "token",
    permission: { modules: "users", action: "delete" },
    body: userIdBody,
    response: z.object({ message: z.string(), payload: z.object({ erased: z.number() }) }),
    async handler({ env, db, auth, body, now }) {
      const r = await eraseUserActivity(db, env, auth, body.userId, now);
      return { message: r.message, payload: { erased: r.erased } };
    },
  }),
  endpoint({
    method: "POST",
    path: "/user/addUser",
    tag,
    summary:
      "Creates a user ('User Created'); flags are '1'/'0'. Unless sendInvite is '0', mails the invite: a set-password link valid 7 days that signs in to the console (console rights) or the phone app (/m). custom_fields sets the company's custom fields by key (decision 0095). 400 field errors (a bad or missing required custom field: 'key: message'), 422 duplicate email or phone.",
    auth: "token",
    permission: { modules: "users", action: "add" },
    body: addUserBody,
    response: z.object({ message: z.string(), payload: z.object({ id: z.number(), invited: z.boolean() }) }),
    async handler({ db, env, auth, body, now, request, waitUntil }) {
      const r = await deliveringMessages({ env, waitUntil }, users.addUser(db, auth, fromApiBody(body), { origin: origin(env, request), now }));
      return { message: r.message, payload: { id: r.id, invited: r.invited } };
    },
  }),
  endpoint({
    method: "PUT",
    path: "/user/modifyUserDetails",
    tag,
    summary:
      "Saves a user's form ('User Modified'). custom_fields changes the custom fields it names (null or '' clears one) and keeps the others; a required field left empty is refused (400 'key: This field is required').",
    auth: "token",
    permission: { modules: "users", action: "modify" },
    body: modifyUserBody,
    response: message,
    async handler({ db, auth, body, now }) {
      return await users.modifyUser(db, auth, body.userId, fromApiBody(body), now);
    },
  }),
  endpoint({
    method: "PUT",
    path: "/user/setTwoFactorChannel",
    tag,
    summary:
      "Chooses where the caller's own sign-in codes go when the company requires two-factor authentication: two_factor_channel 'email' (the default) or 'text' (their phone; 400 when the account has no mobile number in international form). Any signed-in user, for their own account only; getUserDetails shows the choice as two_factor_channel. Records 'User Modified'.",
    auth: "token",
    permission: "own-account",
    body: wireObject(twoFactorChannelSchema, CHANNEL_WIRE),
    response: message,
    async handler({ db, auth, body, now }) {
      return await withWireFields(CHANNEL_WIRE, () => users.setTwoFactorChannel(db, auth, body, now));
    },
  }),
  endpoint({
    method: "POST",
    path: "/user/flaggedUser",
    tag,
    summary: "Approves (is_flagged '0', 'Account Approved') or flags an account.",
    auth: "token",
    permission: { modules: "users", action: "modify" },
    body: flaggedUserBody,
    response: message,
    async handler({ db, auth, body, now }) {
      return await users.setFlagged(db, auth, { userId: body.userId, isFlagged: body.is_flagged, supportTicketId: body.support_ticket_id }, now);
    },
  }),
  endpoint({
    method: "POST",
    path: "/user/resendInviteMail",
    tag,
    summary: "Queues the invitation mail again (only while account setup is pending).",
    auth: "token",
    permission: { modules: "users", action: "modify" },
    body: userIdBody,
    response: message,
    async handler({ db, env, auth, body, now, request, waitUntil }) {
      return deliveringMessages({ env, waitUntil }, users.resendInvite(db, auth, body.userId, { origin: origin(env, request), now }));
    },
  }),
  endpoint({
    method: "DELETE",
    path: "/user/forgetDevice",
    tag,
    summary: "Unbinds the user's phone from single-device login; answers 'No phone registered' and changes nothing when the user has no phone.",
    auth: "token",
    permission: { modules: "users", action: "modify" },
    query: idQuery,
    response: message,
    async handler({ db, auth, query, now }) {
      const { message } = await users.forgetDevice(db, auth, query.id, now);
      return { message };
    },
  }),
  endpoint({
    method: "POST",
    path: "/user/sendResetLink",
    tag,
    summary:
      "Queues a password reset link: a super admin only (403 otherwise), and only when password reset security is admin (422). It approves the user's waiting reset request (password_reset_requested_at of getUser) too.",
    auth: "token",
    permission: { modules: "users", action: "modify", superAdmin: true },
    body: userIdBody,
    response: message,
    async handler({ db, env, auth, body, now, request, waitUntil }) {
      return deliveringMessages({ env, waitUntil }, users.sendResetLink(db, auth, body.userId, { origin: origin(env, request), now }));
    },
  }),
  endpoint({
    method: "GET",
    path: "/user/getAssignedEkeys",
    tag,
    summary: "The user's e-key entries (payload) and the devices reached through their groups (groupKeys).",
    auth: "token",
    permission: { modules: "users" },
    query: userIdQuery,
    response: z.object({
      payload: z.array(assignedEkeyShape),
      groupKeys: z.array(z.object({ group_id: z.number(), id: z.number(), full_name: z.string() })).describe("The devices reached through the user's group keys"),
    }),
    async handler({ db, auth, core, query, now }) {
      const today = ekeys.companyToday(auth, core, now);
      const r = await ekeys.getAssignedEkeys(db, auth, query.userId, today);
      const groupKeys = r.groupDevices.map((d) => ({ group_id: d.groupId, id: d.id, full_name: d.fullName }));
      return { payload: r.keys.map(assignedEkeyPayload), extra: { groupKeys } };
    },
  }),
  endpoint({
    method: "GET",
    path: "/user/getEkeys",
    tag,
    summary: "Devices (type=device) or active device groups (type=group) that can be assigned.",
    auth: "token",
    permission: { modules: "users" },
    query: getEkeysQuery,
    response: z.object({ payload: z.union([z.array(keyOptionShape), z.array(groupOptionShape)]).describe("Devices for type=device; groups with their schedules for type=group") }),
    async handler({ db, auth, query }) {
      if (query.type === "device") return { payload: (await ekeys.getDeviceKeyOptions(db, auth, query.userId)).map(keyOptionPayload) };
      return { payload: (await ekeys.getGroupKeyOptions(db, auth, query.userId)).map(groupOptionPayload) };
    },
  }),
  endpoint({
    method: "POST",
    path: "/user/assignKeyToUser",
    tag,
    summary: "Assigns a device or group key, or modifies entry entryId; the window is validated by the access-window core.",
    auth: "token",
    permission: { modules: "users", action: ["add", "modify"] },
    body: assignBody,
    response: z.object({ message: z.string(), payload: z.object({ entryId: z.number().describe("The key entry made or modified") }) }),
    async handler({ db, auth, core, body, now }) {
      const assignment = { ...keySpecOfBody(body), userId: body.userId, entryId: body.entryId, fobNumber: body.FOBDeviceId };
      const r = await withWireFields(KEY_WIRE, () => ekeys.assignKey(db, auth, core, assignment, now));
      return { message: r.message, payload: { entryId: r.entryId } };
    },
  }),
  endpoint({
    method: "DELETE",
    path: "/user/deleteAssignedEkey",
    tag,
    summary: "Removes a device key entry (422 when unknown).",
    auth: "token",
    permission: { modules: "users", action: "delete" },
    query: entryIdQuery,
    response: message,
    async handler({ db, auth, query, now }) {
      return await ekeys.removeKey(db, auth, query.entryId, "device", now);
    },
  }),
  endpoint({
    method: "DELETE",
    path: "/user/deleteAssignedGroup",
    tag,
    summary: "Removes a group key entry (422 when unknown).",
    auth: "token",
    permission: { modules: "users", action: "delete" },
    query: entryIdQuery,
    response: message,
    async handler({ db, auth, query, now }) {
      return await ekeys.removeKey(db, auth, query.entryId, "group", now);
    },
  }),
  endpoint({
    method: "POST",
    path: "/user/bulkAssignKey",
    tag,
    summary: "Gives one device or group key (the assign body with userIds instead of userId) to many users in one batch; one result per id.",
    auth: "token",
    permission: { modules: "users", action: "add" },
    body: bulkAssignBody,
    response: bulkResponse,
    async handler({ db, auth, core, body, now }) {
      const rows = await withWireFields(KEY_WIRE, () => bulk.giveKeyToUsers(db, auth, core, { ...keySpecOfBody(body), userIds: body.userIds }, now));
      return { message: bulkMessage(rows), payload: bulkPayload(rows) };
    },
  }),
  endpoint({
    method: "POST",
    path: "/user/bulkSetInactive",
    tag,
    summary: "Deactivates (isInactive '1', the default) or reactivates ('0') many users in one batch; one result per id.",
    auth: "token",
    permission: { modules: "users", action: "modify" },
    body: bulkUsersBody,
    response: bulkResponse,
    async handler({ db, auth, body, now }) {
      const rows = await bulk.setUsersInactive(db, auth, body, now);
      return { message: bulkMessage(rows), payload: bulkPayload(rows) };
    },
  }),
  endpoint({
    method: "POST",
    path: "/user/bulkResendInviteMail",
    tag,
    summary: "Queues the invitation mail for many users (those with account setup pending); one result per id.",
    auth: "token",
    permission: { modules: "users", action: "modify" },
    body: bulkUsersBody,
    response: bulkResponse,
    async handler({ db, env, auth, body, now, request, waitUntil }) {
      const rows = await deliveringMessages({ env, waitUntil }, bulk.inviteUsers(db, auth, body.userIds, { origin: origin(env, request), now }));
      return { message: bulkMessage(rows), payload: bulkPayload(rows) };
    },
  }),
];
