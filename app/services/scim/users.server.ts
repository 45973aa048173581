/**
 * SCIM Users (RFC 7643 §4.1) ↔ console users of the directory's company: userName, name, displayName,
 * the work e-mail (the console's sign-in e-mail), a phone, active and externalId. Super admins are out of
 * the directory's reach: not listed, not found, never changed. Deactivation and deletion reach gateways
 * and boards through the feed's triggers on `users` and `ekey_assignments` (decisions 0030 and 0114).
 * The company's custom fields are the extension `urn:ietf:params:scim:schemas:extension:kac:2.0:User`
 * (./custom-fields.server.ts, decision 0095).
 */
import { and, asc, eq, isNull, ne, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import { FORBIDDEN_IN_NAMES, NAME_MAX } from "~/schemas/text";
import { fieldsOf, fieldsQuery, userValuesQuery, valuesByUser, valuesOfUsers, valueStatements, type CustomField } from "~/services/custom-fields.server";
import { userRemovalStatements } from "~/services/users.server";
import { activityInsert, type ActivityEntry } from "~/utils/activity-insert.server";
import { countWhere, schema } from "~/utils/db.server";
import { parsePhone } from "~/utils/phone";
import { assertVersion, iso, listResponse, resourceId, type ListQuery, type ScimCall } from "./call.server";
import {
  CUSTOM_FIELDS_SCHEMA,
  extensionFilters,
  extensionOf,
  filterNamesExtension,
  givenInPatch,
  givenInResource,
  sameValues,
  scimCheckedValues,
  valuesById,
  type FieldValues,
} from "./custom-fields.server";
import { invalidValue, ScimError } from "./errors";
import { filterSql, type FilterColumn } from "./filter-sql.server";
import { parsePatch, scimBoolean, type PatchOp } from "./patch";

const u = schema.users;
export const USER_SCHEMA = "urn:ietf:params:scim:schemas:core:2.0:User";

/** A user as the directory sees it. `email` is the console's (lower case); `phone` E.164 or "". */
export type UserState = {
  userName: string;
  email: string;
  givenName: string;
  familyName: string;
  displayName: string;
  phone: string;
  active: boolean;
  externalId: string | null;
};

type UserRow = typeof u.$inferSelect;
/** A user with the company's custom fields and the user's values of them. */
export type ScimUser = { row: UserRow; fields: CustomField[]; values: FieldValues };

const FILTERS: Record<string, FilterColumn> = {
  id: { col: u.id, type: "id" },
  username: { col: sql`coalesce(${u.scimUserName}, ${u.email})`, type: "string" },
  emails: { col: u.email, type: "string" },
  "emails.value": { col: u.email, type: "string" },
  externalid: { col: u.externalId, type: "string", caseExact: true },
  displayname: { col: u.displayName, type: "string" },
  "name.givenname": { col: u.firstName, type: "string" },
  "name.familyname": { col: u.lastName, type: "string" },
  active: { col: sql`(case when ${u.isInactive} then 0 else 1 end)`, type: "boolean" },
};

/** The users the directory may see: its company's, live, not super admins. */
const reachable = (companyId: number, ...more: (SQL | undefined)[]) => and(eq(u.companyId, companyId), isNull(u.deletedAt), eq(u.isSuperAdmin, false), ...more) as SQL;

export const userVersion = (row: Pick<UserRow, "updatedAt">) => `W/"${row.updatedAt}"`;

export function toScimUser({ row, fields, values }: ScimUser, base: string) {
  const custom = extensionOf(fields, values);
  return {
    schemas: custom ? [USER_SCHEMA, CUSTOM_FIELDS_SCHEMA] : [USER_SCHEMA],
    id: String(row.id),
    ...(row.externalId != null && { externalId: row.externalId }),
    userName: row.scimUserName ?? row.email,
    name: { givenName: row.firstName, familyName: row.lastName, formatted: `${row.firstName} ${row.lastName}`.trim() },
    displayName: row.displayName,
    emails: [{ value: row.email, type: "work", primary: true }],
    ...(row.phoneNumber && { phoneNumbers: [{ value: row.phoneNumber, type: "mobile", primary: true }] }),
    active: !row.isInactive,
    ...(custom && { [CUSTOM_FIELDS_SCHEMA]: custom }),
    meta: { resourceType: "User", created: iso(row.createdAt), lastModified: iso(row.updatedAt), location: `${base}/Users/${row.id}`, version: userVersion(row) },
  };
}

/** A page of users: one round trip, a second for the page's custom values (a third first when the filter names one). */
export async function listScimUsers(call: ScimCall, q: ListQuery) {
  const { db } = call;
  const companyId = call.dir.companyId;
  const known = filterNamesExtension(q.filter && JSON.stringify(q.filter)) ? fieldsOf(await fieldsQuery(db, companyId)) : null;
  const where = reachable(companyId, q.filter ? filterSql(q.filter, known ? { ...FILTERS, ...extensionFilters(known, u.id) } : FILTERS) : undefined);
  const page = db
    .select()
    .from(u)
    .where(where)
    .orderBy(asc(u.id))
    .limit(q.count)
    .offset(q.startIndex - 1);
  const [[{ n: total }], rows, fieldRows] = await db.batch([countWhere(db, u, where), page, fieldsQuery(db, companyId)]);
  if (q.count === 0) return listResponse(total, q, []);
  const fields = fieldsOf(fieldRows);
  const values = await valuesOfUsers(
    db,
    companyId,
    rows.map((r) => r.id),
    fields,
  );
  return listResponse(
    total,
    q,
    rows.map((row) => toScimUser({ row, fields, values: values.get(row.id) ?? {} }, call.base)),
  );
}

/** One user of the directory's reach with the company's fields and the user's values: one round trip. */
export async function findScimUser(call: ScimCall, rawId: string): Promise<ScimUser> {
  const id = resourceId(rawId, "User");
  const { db } = call;
  const [rows, fieldRows, valueRows] = await db.batch([
    db
      .select()
      .from(u)
      .where(reachable(call.dir.companyId, eq(u.id, id)))
      .limit(1),
    fieldsQuery(db, call.dir.companyId),
    userValuesQuery(db, call.dir.companyId, id),
  ]);
  if (!rows[0]) throw new ScimError(404, `User ${rawId} not found`);
  const fields = fieldsOf(fieldRows);
  return { row: rows[0], fields, values: valuesByUser(valueRows, fields).get(id) ?? {} };
}

const stateOf = (row: UserRow): UserState => ({
  userName: row.scimUserName ?? row.email,
  email: row.email,
  givenName: row.firstName,
  familyName: row.lastName,
  displayName: row.displayName,
  phone: row.phoneNumber,
  active: !row.isInactive,
  externalId: row.externalId,
});

// ---------------------------------------------------------------- reading what the directory sends

const emailSchema = z.string().trim().toLowerCase().max(254).email();

function text(v: unknown, what: string, max = NAME_MAX): string {
  if (typeof v !== "string") return invalidValue(`${what} is a string`);
  const s = v.trim();
  if (s.length > max) invalidValue(`${what} is at most ${max} characters`);
  if (FORBIDDEN_IN_NAMES.test(s)) invalidValue(`${what} contains characters that are not allowed`);
  return s;
}

function email(v: unknown): string {
  const r = emailSchema.safeParse(v);
  return r.success ? r.data : invalidValue(`${String(v)} is not an e-mail address`);
}

function phone(v: unknown): string {
  if (v === null || v === "") return "";
  const raw = typeof v === "string" ? v.replace(/^tel:/i, "") : invalidValue("A phone number is a string");
  const r = parsePhone("", raw);
  return "e164" in r ? r.e164 : invalidValue(`${raw} is not a phone number in international form (+…)`);
}

type MultiValue = { value?: unknown; type?: unknown; primary?: unknown };

/** The value of a multi-valued attribute the console keeps one of: the primary, else `preferType`, else the first. */
function pick(list: unknown, preferType: string, what: string): unknown {
  if (list === null) return null;
  if (!Array.isArray(list)) return invalidValue(`${what} is an array`);
  const items = list as MultiValue[];
  const chosen = items.find((i) => i?.primary === true) ?? items.find((i) => String(i?.type ?? "").toLowerCase() === preferType) ?? items[0];
  return chosen?.value ?? null;
}

/** The state a full resource (POST, PUT) describes; `before` keeps what a PUT leaves out that the console needs. */
export function stateFromResource(body: unknown): UserState {
  if (!body || typeof body !== "object" || Array.isArray(body)) throw new ScimError(400, "A User is a JSON object", "invalidSyntax");
  const b = body as Record<string, unknown>;
  if (b.userName === undefined || b.userName === null || b.userName === "") throw new ScimError(400, "userName is required", "invalidValue");
  const userName = text(b.userName, "userName", 254);
  if (!userName) invalidValue("userName is required");
  const name = (b.name ?? {}) as Record<string, unknown>;
  if (typeof name !== "object" || Array.isArray(name)) invalidValue("name is an object");
  const chosenEmail = b.emails === undefined ? null : pick(b.emails, "work", "emails");
  const state: UserState = {
    userName,
    email: chosenEmail != null ? email(chosenEmail) : "",
    givenName: name.givenName == null ? "" : text(name.givenName, "name.givenName"),
    familyName: name.familyName == null ? "" : text(name.familyName, "name.familyName"),
    displayName: b.displayName == null ? "" : text(b.displayName, "displayName"),
    phone: b.phoneNumbers === undefined ? "" : phone(pick(b.phoneNumbers, "mobile", "phoneNumbers")),
    active: b.active === undefined ? true : scimBoolean(b.active, "active"),
    externalId: b.externalId == null ? null : text(b.externalId, "externalId", 255),
  };
  return complete(state);
}

/** Fills what the console needs from what the directory gave: the e-mail from an e-mail-shaped userName, names from each other. */
function complete(s: UserState): UserState {
  const mail = s.email || (emailSchema.safeParse(s.userName).success ? s.userName.toLowerCase() : "");
  if (!mail) invalidValue("An e-mail is required: in emails, or as the userName");
  const givenName = s.givenName || s.displayName.split(/\s+/)[0] || mail.split("@")[0];
  const familyName = s.familyName;
  const displayName = s.displayName || `${givenName} ${familyName}`.trim();
  return { ...s, email: mail, givenName: givenName.slice(0, NAME_MAX), familyName, displayName: displayName.slice(0, NAME_MAX) };
}

/** `state` with the PATCH ops applied (attributes the console does not keep are accepted and ignored). */
export function applyUserPatch(state: UserState, ops: PatchOp[]): UserState {
  const s = { ...state };
  for (const { op, path, value } of ops) {
    if (!path || path.extension) continue;
    const remove = op === "remove";
    switch (path.attr) {
      case "username":
        if (remove) throw new ScimError(400, "userName cannot be removed", "mutability");
        s.userName = text(value, "userName", 254) || invalidValue("userName is required");
        break;
      case "displayname":
        s.displayName = remove ? "" : text(value, "displayName");
        break;
      case "externalid":
        s.externalId = remove || value === null ? null : text(value, "externalId", 255);
        break;
      case "active":
        if (remove) throw new ScimError(400, "active cannot be removed", "mutability");
        s.active = scimBoolean(value, "active");
        break;
      case "name": {
        if (path.sub === "givenname") s.givenName = remove ? "" : text(value, "name.givenName");
        else if (path.sub === "familyname") s.familyName = remove ? "" : text(value, "name.familyName");
        else if (path.sub === null) {
          const n = (remove ? {} : (value ?? {})) as Record<string, unknown>;
          if (typeof n !== "object" || Array.isArray(n)) invalidValue("name is an object");
          if (remove || n.givenName !== undefined) s.givenName = n.givenName == null ? "" : text(n.givenName, "name.givenName");
          if (remove || n.familyName !== undefined) s.familyName = n.familyName == null ? "" : text(n.familyName, "name.familyName");
        }
        break;
      }
      case "emails": {
        const f = path.filter;
        // The console keeps one e-mail: the work or primary one (Entra: `emails[type eq "work"].value`).
        if (f && !(f.attr === "type" && String(f.value).toLowerCase() === "work") && !(f.attr === "primary" && f.value === true)) break;
        const v = remove ? null : f || path.sub ? value : pick(value, "work", "emails");
        s.email = v == null ? "" : email(v);
        break;
      }
      case "phonenumbers": {
        const f = path.filter;
        const type = f?.attr === "type" ? String(f.value).toLowerCase() : null;
        // One phone: mobile first; a work number only when there is no other.
        if (type && type !== "mobile" && s.phone && !remove) break;
        const v = remove ? null : f || path.sub ? value : pick(value, "mobile", "phoneNumbers");
        s.phone = phone(v);
        break;
      }
      default:
        // title, addresses, preferredLanguage, …: not kept by the console.
        break;
    }
  }
  return complete(s);
}

// ---------------------------------------------------------------- writing

async function assertUnique(call: ScimCall, s: UserState, exceptId?: number) {
  const others = (cond: SQL) => and(eq(u.companyId, call.dir.companyId), isNull(u.deletedAt), exceptId ? ne(u.id, exceptId) : undefined, cond);
  const [name, mail, tel] = await call.db.batch([
    call.db
      .select({ id: u.id })
      .from(u)
      .where(others(sql`lower(coalesce(${u.scimUserName}, ${u.email})) = ${s.userName.toLowerCase()}`))
      .limit(1),
    call.db
      .select({ id: u.id })
      .from(u)
      .where(others(eq(u.email, s.email)))
      .limit(1),
    call.db
      .select({ id: u.id })
      .from(u)
      .where(others(s.phone ? eq(u.phoneNumber, s.phone) : sql`0`))
      .limit(1),
  ]);
  if (name.length) throw new ScimError(409, `userName ${s.userName} is taken in this company`, "uniqueness");
  if (mail.length) throw new ScimError(409, `The e-mail ${s.email} is taken in this company`, "uniqueness");
  if (tel.length) throw new ScimError(409, `The phone number ${s.phone} is taken in this company`, "uniqueness");
}

const columnsOf = (s: UserState) => ({
  firstName: s.givenName,
  lastName: s.familyName,
  displayName: s.displayName,
  email: s.email,
  scimUserName: s.userName.toLowerCase() === s.email ? null : s.userName,
  phoneNumber: s.phone,
  isInactive: !s.active,
  externalId: s.externalId,
});

const logOf = (call: ScimCall, name: string, targetUserId: ActivityEntry["targetUserId"], summary: string): ActivityEntry => ({
  companyId: call.dir.companyId,
  name,
  createdByUserId: null,
  targetUserId,
  summary,
  details: { directory: call.dir.tokenName },
  at: call.now,
});

/**
 * POST /Users: a console user without a password (account setup pending); no invite goes out. Custom fields
 * follow the console's rule for a new user: a required one must be given (decision 0095).
 */
export async function createScimUser(call: ScimCall, body: unknown): Promise<ScimUser> {
  const s = stateFromResource(body);
  const { db, now } = call;
  const companyId = call.dir.companyId;
  const fields = fieldsOf(await fieldsQuery(db, companyId));
  const values = scimCheckedValues(fields, {}, givenInResource(body as Record<string, unknown>, fields), true);
  await assertUnique(call, s);
  const newId = sql`(select id from users where company_id = ${companyId} and email = ${s.email} and deleted_at is null)`;
  const [inserted] = await db.batch([
    db
      .insert(u)
      .values({ ...columnsOf(s), companyId, accountSetupPending: true, createdAt: now, updatedAt: now })
      .returning(),
    ...valueStatements(db, companyId, newId, valuesById(fields, values), true),
    activityInsert(db, logOf(call, "Directory User Created", newId, `${s.displayName} (${s.email})`)),
  ]);
  return { row: inserted[0], fields, values };
}

/**
 * The user as `s` and, when the request gave any, with the custom values `given` (checked, required fields
 * included, on the values the user ends with; `replace` clears the fields not given). A request that names no
 * custom field leaves the values as they are and is never refused for them: a deactivation always goes through.
 * Everything is checked before the one batch that writes, so a refused request changes nothing.
 */
async function writeUser(call: ScimCall, before: ScimUser, s: UserState, given: Record<string, unknown> | undefined, replace: boolean): Promise<ScimUser> {
  const was = stateOf(before.row);
  const values = given === undefined ? before.values : scimCheckedValues(before.fields, before.values, given, replace);
  const valuesChanged = !sameValues(before.values, values);
  if (JSON.stringify(was) === JSON.stringify(s) && !valuesChanged) return before;
  await assertUnique(call, s, before.row.id);
  const deactivated = was.active && !s.active;
  const { db, now } = call;
  const id = before.row.id;
  const [updated] = await db.batch([
    db
      .update(u)
      .set({ ...columnsOf(s), updatedAt: now })
      .where(reachable(call.dir.companyId, eq(u.id, id)))
      .returning(),
    ...(valuesChanged ? valueStatements(db, call.dir.companyId, id, valuesById(before.fields, values)) : []),
    activityInsert(db, logOf(call, deactivated ? "Directory User Deactivated" : "Directory User Modified", id, s.displayName)),
  ]);
  return { ...before, row: updated[0] ?? before.row, values };
}

/** PUT: a body with the extension object sets the custom fields to it (those left out are cleared); one without keeps them. */
export async function replaceScimUser(call: ScimCall, rawId: string, body: unknown): Promise<ScimUser> {
  const before = await findScimUser(call, rawId);
  assertVersion(call.request, userVersion(before.row));
  const s = stateFromResource(body);
  return writeUser(call, before, s, givenInResource(body as Record<string, unknown>, before.fields), true);
}

export async function patchScimUser(call: ScimCall, rawId: string, body: unknown): Promise<ScimUser> {
  const before = await findScimUser(call, rawId);
  assertVersion(call.request, userVersion(before.row));
  const ops = parsePatch(body);
  return writeUser(call, before, applyUserPatch(stateOf(before.row), ops), givenInPatch(ops, before.fields), false);
}

/** DELETE /Users/:id: the console's soft delete, keys and sessions with it. */
export async function deleteScimUser(call: ScimCall, rawId: string): Promise<void> {
  const { row: before } = await findScimUser(call, rawId);
  assertVersion(call.request, userVersion(before));
  await call.db.batch([
    ...userRemovalStatements(call.db, call.dir.companyId, before.id, call.now),
    activityInsert(call.db, logOf(call, "Directory User Removed", before.id, before.displayName)),
  ]);
}
