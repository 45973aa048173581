/**
 * Users of a company (docs/ARCHITECTURE.md §7.2; API calls `user/*`, §8). Pages and the admin API both
 * call these functions; each checks the caller's right and scopes by company itself.
 */
import { and, asc, desc, eq, inArray, ne, or, sql, type SQL } from "drizzle-orm";
import { FIELD_NOT_SET, fieldFilterName, resolveFieldFilters, valueMessage, type FieldFilter } from "~/schemas/custom-fields";
import type { UserFilters } from "~/schemas/search";
import { userFormSchema, applyPrivilegeRules, twoFactorChannelSchema, type TwoFactorChannelInput, type UserForm, type UserInput } from "~/schemas/users";
import { checkedValues, fieldsOf, fieldsQuery, userValuesQuery, valuesByUser, valueStatements, type CustomField } from "~/services/custom-fields.server";
import { queueResetLink } from "~/services/password-reset.server";
import { inviteStatements, type InvitingCompany } from "~/services/invites.server";
import { idInAny, lowerOf, phoneDigits, searchKey, startsWith } from "~/services/search.server";
import { activityInsert } from "~/utils/activity-insert.server";
import { assertCan, type Auth } from "~/utils/auth-guards.server";
import { countWhere, schema, type Db } from "~/utils/db.server";
import { forbidden, notFound, ServiceError } from "~/utils/errors.server";
import { parseInput } from "~/utils/parse-input.server";
import { isE164 } from "~/utils/phone";
import { liveInCompany } from "~/utils/tenant.server";

const u = schema.users;
type BatchItem = Parameters<Db["batch"]>[0][number];

export const USER_MSG = {
  created: "User Created",
  modified: "User Modified",
  removed: "Removed User",
  approved: "Account Approved",
  resetSent: "Password Reset Link Sent",
  inviteResent: "Invite Resent",
  /** The add-user page's answer when the invite went with the new user. */
  createdInvited: "User Created; invite sent",
  deviceForgotten: "Device Forgotten",
  noPhone: "No phone registered",
  emailTaken: "This email already exists in this company",
  phoneTaken: "This phone number already exists in this company",
  notFound: "The provided user is invalid",
  selfDelete: "You cannot remove your own account",
  resetNotAllowed: "Reset links are sent by the admin only when the company's password reset security is admin",
  notPending: "This user has already completed account setup",
  superAdminOnly: "Only a super admin can change a super admin",
  badTicket: "The provided support ticket is invalid",
  channelNeedsPhone: "Sign-in codes can go by text message only to a mobile number in international form; add one first",
  channelSaved: "Sign-in code preference saved",
} as const;

/** Sortable list columns → SQL columns (each list query uses an index on company_id first). */
export const USER_SORTS = {
  displayName: u.displayName,
  email: u.email,
  phone: u.phoneNumber,
  isSOInterrupt: u.isSoInterrupt,
  isInstaller: u.isInstaller,
  isSentinel: u.isSentinel,
  isSuperAdmin: u.isSuperAdmin,
  active: u.isInactive,
  lastActivity: u.lastActivityAt,
} as const;
export type UserSort = keyof typeof USER_SORTS;

const listColumns = {
  id: u.id,
  displayName: u.displayName,
  email: u.email,
  phoneNumber: u.phoneNumber,
  countryCode: u.countryCode,
  roleId: u.roleId,
  companyId: u.companyId,
  isInstaller: u.isInstaller,
  isSentinel: u.isSentinel,
  isInactive: u.isInactive,
  isSoInterrupt: u.isSoInterrupt,
  isSuperAdmin: u.isSuperAdmin,
  lastActivityAt: u.lastActivityAt,
  /** The user's custom field values as a JSON object of field id → value (decision 0095). */
  customValues: sql<
    string | null
  >`(select json_group_object(field_id, value) from user_field_values where user_field_values.company_id = ${u.companyId} and user_field_values.user_id = ${u.id})`,
};

/** A row of the user list (domain names; the admin API maps it to the spec's, decision 0017). */
export type UserListRow = {
  id: number;
  displayName: string;
  email: string;
  phoneNumber: string;
  countryCode: string;
  roleId: number | null;
  companyId: number;
  isInstaller: boolean;
  isSentinel: boolean;
  isInactive: boolean;
  isSoInterrupt: boolean;
  isSuperAdmin: boolean;
  lastActivityAt: number | null;
  /** Custom field values by key (decision 0095). */
  customFields: Record<string, string>;
};

export type ListUsersOptions = {
  includeInactive: boolean;
  /** Search and filters (docs/decisions/0035-search-and-bulk-actions.md); `status` overrides `includeInactive`. */
  filters?: Partial<UserFilters>;
  sort?: { key: string; desc: boolean };
  /** Omitted: every row (the admin API's getAllUsers). */
  page?: { offset: number; limit: number };
  /**
   * Filters by custom fields, key → value or "-" for none (`field.<key>=`, decision 0095). A filter that names
   * no custom field of the company, or a value the field could not hold, is ignored (the page), or with `strictFieldFilters`
   * refused with 400 (the admin API).
   */
  fieldFilters?: Record<string, string>;
  strictFieldFilters?: boolean;
};

/**
 * One page, the total and the company's custom fields in a single D1 round trip (two with a custom field filter,
 * whose definitions are read first). `fieldFilters` are those applied, key → value or "-".
 */
export async function listUsers(
  db: Db,
  auth: Auth,
  opts: ListUsersOptions,
): Promise<{ rows: UserListRow[]; total: number; fields: CustomField[]; fieldFilters: Record<string, string> }> {
  assertCan(auth, "users");
  const filters = { status: opts.includeInactive ? ("all" as const) : ("active" as const), ...opts.filters };
  const [byField, phones] = await Promise.all([fieldFiltersOf(db, auth, opts), phonePrefixes(db, auth.company.id, filters.q)]);
  const where = liveInCompany(u, auth, ...userConditions(auth.company.id, filters, phones), ...fieldConditions(auth.company.id, byField));
  const sortKey: UserSort = opts.sort && opts.sort.key in USER_SORTS ? (opts.sort.key as UserSort) : "displayName";
  const dir = opts.sort?.desc ? desc : asc;
  const order = [dir(USER_SORTS[sortKey]), asc(u.id)];
  const base = db
    .select(listColumns)
    .from(u)
    .where(where)
    .orderBy(...order);
  const pageQuery = opts.page ? base.limit(opts.page.limit).offset(opts.page.offset) : base;
  const [rows, totals, fieldRows] = await db.batch([pageQuery, countWhere(db, u, where), fieldsQuery(db, auth.company.id)]);
  const fields = fieldsOf(fieldRows);
  const keyOf = new Map(fields.map((d) => [String(d.id), d.key]));
  const withValues = rows.map(({ customValues, ...r }) => {
    const byId = JSON.parse(customValues ?? "{}") as Record<string, string>;
    const customFields: Record<string, string> = {};
    for (const [id, value] of Object.entries(byId)) if (keyOf.has(id)) customFields[keyOf.get(id)!] = value;
    return { ...r, customFields };
  });
  return { rows: withValues, total: totals[0]?.n ?? 0, fields, fieldFilters: Object.fromEntries(byField.map((f) => [f.key, f.value ?? FIELD_NOT_SET])) };
}

/** The caller's choice field filters checked against the company's own definitions (so never another company's field). */
async function fieldFiltersOf(db: Db, auth: Auth, opts: ListUsersOptions): Promise<FieldFilter[]> {
  if (!opts.fieldFilters || Object.keys(opts.fieldFilters).length === 0) return [];
  const { filters, errors } = resolveFieldFilters(fieldsOf(await fieldsQuery(db, auth.company.id)), opts.fieldFilters);
  const bad = Object.keys(errors);
  if (opts.strictFieldFilters && bad.length) {
    const fieldErrors = Object.fromEntries(bad.map((k) => [fieldFilterName(k), [errors[k]]]));
    throw new ServiceError(400, valueMessage(fieldFilterName(bad[0]), errors[bad[0]]), { fieldErrors });
  }
  return filters;
}

/** A user holds the value (the index on company, field and value; a text in any case), or holds no value of the field. */
function fieldConditions(companyId: number, filters: FieldFilter[]): SQL[] {
  const cv = schema.userFieldValues;
  return filters.map(({ fieldId, value, anyCase }) => {
    const holders = (extra?: SQL) => sql`(select ${cv.userId} from ${cv} where ${and(eq(cv.companyId, companyId), eq(cv.fieldId, fieldId), extra)})`;
    if (value === null) return sql`${u.id} not in ${holders()}`;
    return sql`${u.id} in ${holders(anyCase ? sql`lower(${cv.value}) = lower(${value})` : eq(cv.value, value))}`;
  });
}

const FLAG_COLUMNS = { superAdmin: u.isSuperAdmin, admin: u.isSentinel, installer: u.isInstaller, soInterrupt: u.isSoInterrupt, fob: u.isFob } as const;

/**
 * Phones are stored as E.164 (decision 0037): a search that looks like a phone number matches it as
 * typed internationally ("+34 612", "0034 612", "34612") or as a national number of the company's
 * default country ("612 345").
 */
async function phonePrefixes(db: Db, companyId: number, q: string | undefined): Promise<string[]> {
  const digits = phoneDigits(searchKey(q ?? ""));
  if (!digits) return [];
  const international = digits.startsWith("00") ? digits.slice(2) : digits;
  const s = schema.companySettings;
  const [row] = await db.select({ cc: s.defaultCountryCode }).from(s).where(eq(s.companyId, companyId)).limit(1);
  const cc = (row?.cc ?? "1").replace(/\D/g, "").replace(/^0+/, "") || "1";
  return [...new Set([`+${international}`, `+${cc}${digits.replace(/^0+/, "")}`])];
}

/**
 * The list's filters as conditions: search by name, e-mail, phone prefix or the start of a custom field's value
 * (decision 0095); status; a privilege; a role; a group key.
 */
export function userConditions(companyId: number, f: Partial<UserFilters>, phones: string[] = []): (SQL | undefined)[] {
  const key = searchKey(f.q ?? "");
  const search = key
    ? idInAny(u, companyId, [
        startsWith(lowerOf(u.displayName), key),
        startsWith(lowerOf(u.firstName), key),
        startsWith(lowerOf(u.lastName), key),
        startsWith(u.email, key),
        // One branch for the phone ranges: D1 allows at most five terms in a compound SELECT.
        ...(phones.length ? [or(...phones.map((prefix) => startsWith(u.phoneNumber, prefix)))!] : []),
      ])
    : undefined;
  const cv = schema.userFieldValues;
  const valueSearch = key ? sql`${u.id} in (select ${cv.userId} from ${cv} where ${and(eq(cv.companyId, companyId), startsWith(lowerOf(cv.value), key))})` : undefined;
  const k = schema.ekeyAssignments;
  return [
    search && valueSearch ? or(search, valueSearch) : search,
    f.status === "all" ? undefined : eq(u.isInactive, f.status === "inactive"),
    f.flag ? eq(FLAG_COLUMNS[f.flag], true) : undefined,
    f.roleId ? eq(u.roleId, f.roleId) : undefined,
    f.groupId ? sql`${u.id} in (select ${k.userId} from ${k} where ${and(eq(k.groupId, f.groupId), eq(k.isGroup, true), eq(k.companyId, companyId))})` : undefined,
  ];
}

export type UserDetails = Awaited<ReturnType<typeof getUserDetails>>;

/** One user (domain names) plus the company settings the modify page's header buttons depend on. */
export async function getUserDetails(db: Db, auth: Auth, id: number) {
  assertCan(auth, "users");
  return userDetails(db, auth, id);
}

/** The signed-in user's own record (Account Details, spec part 1 §1): every user reads it, with or without the users right. */
export async function getOwnAccount(db: Db, auth: Auth) {
  return userDetails(db, auth, auth.user.id);
}

async function userDetails(db: Db, auth: Auth, id: number) {
  const user = await findUser(db, auth, id);
  const s = schema.companySettings;
  const [settingsRows, fieldRows, valueRows] = await db.batch([
    db.select().from(s).where(eq(s.companyId, auth.company.id)).limit(1),
    fieldsQuery(db, auth.company.id),
    userValuesQuery(db, auth.company.id, user.id),
  ]);
  const settings = settingsRows[0];
  const fields = fieldsOf(fieldRows);
  return {
    id: user.id,
    firstName: user.firstName,
    lastName: user.lastName,
    displayName: user.displayName,
    email: user.email,
    countryCode: user.countryCode,
    phoneNumber: user.phoneNumber,
    notes: user.notes,
    isSentinel: user.isSentinel,
    isSuperAdmin: user.isSuperAdmin,
    isInstaller: user.isInstaller,
    isFob: user.isFob,
    isInactive: user.isInactive,
    isSoInterrupt: user.isSoInterrupt,
    isFlagged: user.isFlagged,
    supportTicketId: user.supportTicketId,
    accountSetupPending: user.accountSetupPending,
    lastActivityAt: user.lastActivityAt,
    // What the page's header buttons depend on (docs/ARCHITECTURE.md §7.1, modify user).
    isMultiPhoneLogin: settings?.isMultiPhoneLogin ?? false,
    passwordResetSecurity: settings?.passwordResetSecurity ?? "email",
    /** Mode 'admin': when the user asked for a reset that waits for a super admin's approval. */
    passwordResetRequestedAt: user.passwordResetRequestedAt,
    /** Where the user's sign-in codes go; text only to an E.164 phone. */
    twoFactorChannel: user.twoFactorChannel,
    canReceiveTexts: isE164(user.phoneNumber),
    /** The company's custom fields and this user's values by key (decision 0095). */
    fields,
    customFields: valuesByUser(valueRows, fields).get(user.id) ?? {},
  };
}

async function findUser(db: Db, auth: Auth, id: number) {
  if (!Number.isInteger(id) || id <= 0) notFound(USER_MSG.notFound);
  const user = await db.query.users.findFirst({ where: liveInCompany(u, auth, eq(u.id, id)) });
  return user ?? notFound(USER_MSG.notFound);
}

/** Validates with the form schema; throws 400 with field errors (first message as the message). */
export function parseUserForm(input: UserForm): UserInput {
  return applyPrivilegeRules(parseInput(userFormSchema, input));
}

async function assertUnique(db: Db, auth: Auth, v: UserInput, exceptId?: number) {
  const other = (col: SQL) => liveInCompany(u, auth, col, exceptId ? ne(u.id, exceptId) : undefined);
  const [email, phone] = await db.batch([
    db
      .select({ id: u.id })
      .from(u)
      .where(other(eq(u.email, v.email)))
      .limit(1),
    db
      .select({ id: u.id })
      .from(u)
      .where(other(eq(u.phoneNumber, v.cell)))
      .limit(1),
  ]);
  if (email.length) throw new ServiceError(422, USER_MSG.emailTaken, { fieldErrors: { email: [USER_MSG.emailTaken] } });
  if (phone.length) throw new ServiceError(422, USER_MSG.phoneTaken, { fieldErrors: { cell: [USER_MSG.phoneTaken] } });
}

const columnsOf = (v: UserInput) => ({
  firstName: v.firstName,
  lastName: v.lastName,
  displayName: v.displayName,
  email: v.email,
  countryCode: v.countryCode,
  phoneNumber: v.cell,
  notes: v.userNotes,
  isSentinel: v.isSentinel,
  isSuperAdmin: v.isSuperAdmin,
  isInstaller: v.isInstaller,
  isFob: v.isFob,
  isInactive: v.isInactive,
  isSoInterrupt: v.isSOInterrupt,
});

/** Only a super admin may grant or remove super admin (docs/ARCHITECTURE.md §3). */
function assertMayChangeSuperAdmin(auth: Auth, before: boolean, after: boolean) {
  if (before !== after && !auth.user.isSuperAdmin) throw new ServiceError(403, "Only a super admin can add or remove super admins");
}

/**
 * Only a super admin may change a super admin's account: its e-mail (where reset links go), its
 * state (deactivate, flag, delete), its sign-in device and its reset links. Otherwise a user
 * manager could take over an account stronger than their own.
 */
function assertMayTouch(auth: Auth, target: { isSuperAdmin: boolean }) {
  if (target.isSuperAdmin && !auth.user.isSuperAdmin) throw new ServiceError(403, USER_MSG.superAdminOnly);
}

/** A user the caller changes: the caller's right first, then the live user of the company, then the super-admin rule. */
async function userToChange(db: Db, auth: Auth, id: number, action: "modify" | "delete") {
  assertCan(auth, "users", action);
  const user = await findUser(db, auth, id);
  assertMayTouch(auth, user);
  return user;
}

export async function addUser(db: Db, auth: Auth, input: UserForm, ctx: { origin: string; now: number }): Promise<{ id: number; message: string; invited: boolean }> {
  assertCan(auth, "users", "add");
  const v = parseUserForm(input);
  assertMayChangeSuperAdmin(auth, false, v.isSuperAdmin);
  const values = checkedValues(fieldsOf(await fieldsQuery(db, auth.company.id)), new Map(), v.customFields, true);
  await assertUnique(db, auth, v);
  const now = ctx.now;
  // The new id is unknown inside the batch; the live email is unique per company, so look it up there.
  const newId = sql`(select id from users where company_id = ${auth.company.id} and email = ${v.email} and deleted_at is null)`;
  // The first invite is part of the creation ('User Created' says it went out); 'Invite Resent' is for later sends.
  const invite = v.sendInvite
    ? await inviteStatements(
        db,
        { id: newId, companyId: auth.company.id, email: v.email, isSentinel: v.isSentinel, isSuperAdmin: v.isSuperAdmin },
        await invitingCompany(db, auth),
        ctx,
      )
    : [];
  const [inserted] = await db.batch([
    db
      .insert(u)
      .values({ ...columnsOf(v), companyId: auth.company.id, accountSetupPending: true, createdAt: now, updatedAt: now })
      .returning({ id: u.id }),
    ...valueStatements(db, auth.company.id, newId, values, true),
    activityInsert(db, {
      companyId: auth.company.id,
      name: "User Created",
      createdByUserId: auth.user.id,
      targetUserId: newId,
      summary: `${v.displayName} (${v.email})`,
      details: { invite_sent: v.sendInvite },
      at: now,
    }),
    ...invite,
  ]);
  return { id: inserted[0].id, message: USER_MSG.created, invited: v.sendInvite };
}

/**
 * `replaceCustomFields`: the form's post holds every custom field, so one it leaves out is cleared; otherwise
 * (the admin API) the fields it names change and the others keep their values. Required fields are checked
 * on the values the user ends with.
 */
export async function modifyUser(db: Db, auth: Auth, id: number, input: UserForm, now: number, opts: { replaceCustomFields?: boolean } = {}): Promise<{ message: string }> {
  const before = await userToChange(db, auth, id, "modify");
  const v = parseUserForm(input);
  assertMayChangeSuperAdmin(auth, before.isSuperAdmin, v.isSuperAdmin);
  const [fieldRows, valueRows] = await db.batch([fieldsQuery(db, auth.company.id), userValuesQuery(db, auth.company.id, id)]);
  const values = checkedValues(fieldsOf(fieldRows), new Map(valueRows.map((r) => [r.fieldId, r.value])), v.customFields, opts.replaceCustomFields ?? false);
  await assertUnique(db, auth, v, id);
  await db.batch([
    db
      .update(u)
      .set({ ...columnsOf(v), updatedAt: now })
      .where(liveInCompany(u, auth, eq(u.id, id))),
    ...valueStatements(db, auth.company.id, id, values),
    activityInsert(db, {
      companyId: auth.company.id,
      name: "User Modified",
      createdByUserId: auth.user.id,
      targetUserId: id,
      summary: v.displayName,
      // The webhook event tells a deactivation from other changes (decision 0078).
      details: !before.isInactive && v.isInactive ? { deactivated: true } : undefined,
      at: now,
    }),
  ]);
  return { message: USER_MSG.modified };
}

/**
 * Where the caller's own sign-in codes go (Account Details). Only the person chooses it, for their own
 * account, whatever their rights; text needs a phone a text can reach. An admin sees the choice.
 */
export async function setTwoFactorChannel(db: Db, auth: Auth, input: TwoFactorChannelInput, now: number): Promise<{ message: string }> {
  const { channel } = parseInput(twoFactorChannelSchema, input);
  const user = await findUser(db, auth, auth.user.id);
  if (channel === "text" && !isE164(user.phoneNumber)) throw new ServiceError(400, USER_MSG.channelNeedsPhone, { fieldErrors: { channel: [USER_MSG.channelNeedsPhone] } });
  await db.batch([
    db
      .update(u)
      .set({ twoFactorChannel: channel, updatedAt: now })
      .where(liveInCompany(u, auth, eq(u.id, user.id))),
    activityInsert(db, {
      companyId: auth.company.id,
      name: "User Modified",
      createdByUserId: auth.user.id,
      targetUserId: user.id,
      summary: `${user.displayName}: sign-in codes by ${channel === "text" ? "text message" : "e-mail"}`,
      at: now,
    }),
  ]);
  return { message: USER_MSG.channelSaved };
}

/**
 * Soft delete: history keeps the name (activity, notes, tickets, requests and transfers still name the
 * user); everything that could let the user in or reach them goes in the same batch: keys, sessions and
 * their passkey challenges, phone authenticators, reset links, sign-in codes and alert recipient rows.
 */
export async function deleteUser(db: Db, auth: Auth, id: number, now: number): Promise<{ message: string }> {
  const user = await userToChange(db, auth, id, "delete");
  if (user.id === auth.user.id) throw new ServiceError(422, USER_MSG.selfDelete);
  await db.batch([
    ...userRemovalStatements(db, auth.company.id, id, now),
    activityInsert(db, { companyId: auth.company.id, name: "Removed User", createdByUserId: auth.user.id, targetUserId: id, summary: user.displayName, at: now }),
  ]);
  return { message: USER_MSG.removed };
}

/** The soft delete of a live user of `companyId` and everything that could let them in; the console's and the directory's (SCIM DELETE). */
export function userRemovalStatements(db: Db, companyId: number, id: number, now: number) {
  const {
    ekeyAssignments: k,
    sessions: s,
    webauthnChallenges: w,
    phoneAuthenticators: p,
    passwordResetTokens: r,
    twoFactorCodes: f,
    alertRecipients: a,
    scimGroupMembers: m,
    authenticatorApps: t,
    authenticatorRecoveryCodes: c,
    consolePasskeys: pk,
    passkeyChallenges: pc,
  } = schema;
  return [
    db
      .update(u)
      .set({ deletedAt: now, updatedAt: now })
      .where(liveInCompany(u, companyId, eq(u.id, id))),
    db.delete(k).where(and(eq(k.companyId, companyId), eq(k.userId, id))),
    db.delete(w).where(inArray(w.sessionId, db.select({ id: s.id }).from(s).where(eq(s.userId, id)))),
    db.delete(s).where(eq(s.userId, id)),
    db.delete(p).where(eq(p.userId, id)),
    db.delete(r).where(eq(r.userId, id)),
    db.delete(f).where(eq(f.userId, id)),
    db.delete(a).where(and(eq(a.companyId, companyId), eq(a.userId, id))),
    db.delete(m).where(and(eq(m.companyId, companyId), eq(m.userId, id))),
    db.delete(t).where(and(eq(t.companyId, companyId), eq(t.userId, id))),
    db.delete(c).where(eq(c.userId, id)),
    db.delete(pk).where(and(eq(pk.companyId, companyId), eq(pk.userId, id))),
    db.delete(pc).where(eq(pc.userId, id)),
  ] as const;
}

/** A ticket named on a flag must be one of this company's. */
async function companyTicket(db: Db, auth: Auth, ticketId: string | number): Promise<number> {
  const t = schema.supportTickets;
  const id = Number(ticketId);
  const row = Number.isSafeInteger(id)
    ? await db
        .select({ id: t.id })
        .from(t)
        .where(and(eq(t.id, id), eq(t.companyId, auth.company.id)))
        .get()
    : undefined;
  if (!row) throw new ServiceError(422, USER_MSG.badTicket);
  return row.id;
}

/** Banner 'approve' (flagged false) or flag again; approving is audited. */
export async function setFlagged(
  db: Db,
  auth: Auth,
  input: { userId: number; isFlagged: boolean; supportTicketId?: string | number | null },
  now: number,
): Promise<{ message: string }> {
  const user = await userToChange(db, auth, input.userId, "modify");
  const ticket = input.supportTicketId == null || input.supportTicketId === "" ? user.supportTicketId : await companyTicket(db, auth, input.supportTicketId);
  const update = db
    .update(u)
    .set({ isFlagged: input.isFlagged, supportTicketId: ticket, updatedAt: now })
    .where(liveInCompany(u, auth, eq(u.id, user.id)));
  if (input.isFlagged) {
    await update;
    return { message: "Account flagged" };
  }
  await db.batch([
    update,
    activityInsert(db, { companyId: auth.company.id, name: "Account Approved", createdByUserId: auth.user.id, targetUserId: user.id, summary: user.displayName, at: now }),
  ]);
  return { message: USER_MSG.approved };
}

export async function resendInvite(db: Db, auth: Auth, userId: number, ctx: { origin: string; now: number }): Promise<{ message: string }> {
  const user = await userToChange(db, auth, userId, "modify");
  if (!user.accountSetupPending) throw new ServiceError(422, USER_MSG.notPending);
  await db.batch((await userInviteStatements(db, auth, user, ctx)) as [BatchItem, ...BatchItem[]]);
  return { message: USER_MSG.inviteResent };
}

/** The caller's company as an invite names it, in the language of its mails. */
export async function invitingCompany(db: Db, auth: Auth): Promise<InvitingCompany> {
  const s = schema.companySettings;
  const [row] = await db.select({ language: s.language }).from(s).where(eq(s.companyId, auth.company.id)).limit(1);
  return { name: auth.company.name, code: auth.company.code, language: row?.language ?? "en" };
}

type Invited = { id: number | SQL; email: string; isSentinel: boolean; isSuperAdmin: boolean };

/** A later invite (resend, bulk send) of a user of the caller's company with its "Invite Resent" entry, for the caller's batch. */
export async function userInviteStatements(db: Db, auth: Auth, user: Invited, ctx: { origin: string; now: number }, company?: InvitingCompany): Promise<BatchItem[]> {
  return [
    ...(await inviteStatements(db, { ...user, companyId: auth.company.id }, company ?? (await invitingCompany(db, auth)), ctx)),
    activityInsert(db, { companyId: auth.company.id, name: "Invite Resent", createdByUserId: auth.user.id, targetUserId: user.id, summary: user.email, at: ctx.now }),
  ];
}

export async function forgetDevice(db: Db, auth: Auth, userId: number, now: number): Promise<{ message: string; forgotten: boolean }> {
  const user = await userToChange(db, auth, userId, "modify");
  // A user who never signed in on a phone has nothing to forget: say so, and write no audit entry claiming otherwise.
  if (user.boundDeviceId === null && !(await hasPhone(db, auth, user.id))) return { message: USER_MSG.noPhone, forgotten: false };
  await db.batch([
    db
      .update(u)
      .set({ boundDeviceId: null, updatedAt: now })
      .where(liveInCompany(u, auth, eq(u.id, user.id))),
    // The phone's sessions end with it; its offline credentials are refused by gateways once the feed says so.
    db.delete(schema.sessions).where(and(eq(schema.sessions.userId, user.id), eq(schema.sessions.kind, "mobile"))),
    // So do its registered biometrics: a phone signing in again registers anew.
    db.delete(schema.phoneAuthenticators).where(and(eq(schema.phoneAuthenticators.userId, user.id), eq(schema.phoneAuthenticators.companyId, auth.company.id))),
    activityInsert(db, { companyId: auth.company.id, name: "Device Forgotten", createdByUserId: auth.user.id, targetUserId: user.id, summary: user.displayName, at: now }),
  ]);
  return { message: USER_MSG.deviceForgotten, forgotten: true };
}

/** A phone session or a registered phone biometric (a multi-phone company binds no single device). */
async function hasPhone(db: Db, auth: Auth, userId: number): Promise<boolean> {
  const { sessions: s, phoneAuthenticators: p } = schema;
  const [session, authenticator] = await db.batch([
    db
      .select({ id: s.id })
      .from(s)
      .where(and(eq(s.userId, userId), eq(s.kind, "mobile")))
      .limit(1),
    db
      .select({ id: p.id })
      .from(p)
      .where(and(eq(p.userId, userId), eq(p.companyId, auth.company.id)))
      .limit(1),
  ]);
  return session.length > 0 || authenticator.length > 0;
}

/**
 * Only when the company's reset security is admin (docs/ARCHITECTURE.md §7.2), and only by a super admin
 * (spec part 1 §6: "send reset links" is a Super Admin privilege); the link itself is queued by the
 * password-reset service. It also approves the user's waiting reset request (decision 0062).
 */
export async function sendResetLink(db: Db, auth: Auth, userId: number, ctx: { origin: string; now: number }): Promise<{ message: string }> {
  if (!auth.user.isSuperAdmin) forbidden();
  const user = await userToChange(db, auth, userId, "modify");
  const settings = await db.query.companySettings.findFirst({ where: eq(schema.companySettings.companyId, auth.company.id) });
  if (settings?.passwordResetSecurity !== "admin") throw new ServiceError(422, USER_MSG.resetNotAllowed);
  await queueResetLink(db, user, ctx, [
    db.update(u).set({ passwordResetRequestedAt: null }).where(eq(u.id, user.id)),
    activityInsert(db, { companyId: auth.company.id, name: "Password Reset Link Sent", createdByUserId: auth.user.id, targetUserId: user.id, summary: user.email, at: ctx.now }),
  ]);
  return { message: USER_MSG.resetSent };
}
