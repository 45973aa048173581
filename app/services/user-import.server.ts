/**
 * Users from a CSV file (decision 0089): the file is read and checked (`user-import-file.server.ts`), each
 * row is matched to a live user of the caller's company by external id or e-mail, and the preview says
 * what each row would do. Nothing is written until the commit, which runs the same checks again and
 * writes one part (IMPORT_CHUNK rows) per D1 batch. A row that matches a user and changes nothing writes
 * nothing: importing the same file twice changes nothing the second time. The export
 * (`user-export.server.ts`) writes the same columns.
 */
import { and, eq, getTableColumns, inArray, isNotNull, isNull, sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { Core } from "~core";
import { CUSTOM_FIELD_MSG } from "~/schemas/custom-fields";
import { DEACTIVATED } from "~/schemas/device-groups";
import { EKEY_MSG } from "~/schemas/ekeys";
import { USER_IMPORT_MSG as MSG, type ImportCounts, type ImportRow, type UserCsvColumn } from "~/schemas/user-import";
import type { UserInput } from "~/schemas/users";
import { fieldsOf, fieldsQuery, type CustomField } from "~/services/custom-fields.server";
import { companyToday, deviceKeyPlan, groupKeyPlan, keyValues } from "~/services/ekeys.server";
import { assertWithinCaller, grantOfRow } from "~/services/roles.server";
import { checkFile, type CheckedRow, type Problem } from "~/services/user-import-file.server";
import { activityInsert, activityRows, type ActivityEntry } from "~/utils/activity-insert.server";
import { assertCan, type Auth } from "~/utils/auth-guards.server";
import { chunks, schema, type Db } from "~/utils/db.server";
import { ServiceError } from "~/utils/errors.server";
import { can } from "~/utils/permissions";
import { inCompany, liveInCompany } from "~/utils/tenant.server";

const u = schema.users;
const k = schema.ekeyAssignments;
const g = schema.deviceGroups;
const d = schema.devices;
type BatchItem = Parameters<Db["batch"]>[0][number];

type Existing = {
  id: number;
  email: string;
  externalId: string | null;
  phoneNumber: string;
  firstName: string;
  lastName: string;
  displayName: string;
  countryCode: string;
  roleId: number | null;
  isInactive: boolean;
  isSuperAdmin: boolean;
};
type Role = { id: number; title: string; grantable: boolean };

/** What the rows are matched against: the live users they name, the company's roles, the caller's rights. */
type Known = {
  byEmail: Map<string, Existing>;
  byExternalId: Map<string, Existing>;
  byPhone: Map<string, Existing>;
  roles: Map<string, Role>;
  rolesById: Map<number, Role>;
  /** The company's custom fields and the matched users' values of them, by user id then field id (decision 0095). */
  fields: CustomField[];
  values: Map<number, Map<number, string>>;
  /** For a file naming keys: the company's live doors and groups by lower-case name, the matched users' keys, who holds each fob named. */
  keys: KeyKnown | null;
};

type GroupRow = { group: typeof g.$inferSelect; zoneId: number | null; zoneName: string | null };
type DoorRow = { id: number; fullName: string; status: string };
type KeyKnown = {
  doors: Map<string, DoorRow[]>;
  groups: Map<string, GroupRow[]>;
  /** user id → `d<device id>` or `g<group id>` → the user's keys to it (id and fob). */
  held: Map<number, Map<string, { id: number; fob: string | null }[]>>;
  /** fob → the users holding it. */
  fobOwners: Map<string, Set<number>>;
};

const existingColumns = {
  id: u.id,
  email: u.email,
  externalId: u.externalId,
  phoneNumber: u.phoneNumber,
  firstName: u.firstName,
  lastName: u.lastName,
  displayName: u.displayName,
  countryCode: u.countryCode,
  roleId: u.roleId,
  isInactive: u.isInactive,
  isSuperAdmin: u.isSuperAdmin,
};

/** Every lookup of the rows in one D1 round trip: users by e-mail, external id and phone (in parts of D1's parameter limit), and the roles. */
async function lookUp(db: Db, auth: Auth, rows: CheckedRow[], fields: CustomField[]): Promise<Known> {
  const valid = rows.filter((r) => r.user);
  const usersWhere = (column: SQLiteColumn, values: string[]) =>
    chunks([...new Set(values)]).map((part) =>
      db
        .select(existingColumns)
        .from(u)
        .where(liveInCompany(u, auth, inArray(column, part))),
    );
  const lookups = [
    ...usersWhere(
      u.email,
      valid.map((r) => r.user!.email),
    ),
    ...usersWhere(
      u.externalId,
      valid.flatMap((r) => (r.externalId ? [r.externalId] : [])),
    ),
    ...usersWhere(
      u.phoneNumber,
      valid.map((r) => r.user!.cell),
    ),
  ];
  const rolesQuery = db.select().from(schema.roles).where(inCompany(schema.roles, auth));
  const modulesQuery = db.select({ roleId: schema.roleModules.roleId, key: schema.roleModules.moduleKey }).from(schema.roleModules).where(inCompany(schema.roleModules, auth));
  const [roleRows, moduleRows, ...found] = (await db.batch([rolesQuery, modulesQuery, ...lookups] as unknown as [BatchItem, ...BatchItem[]])) as unknown as [
    (typeof schema.roles.$inferSelect)[],
    { roleId: number; key: string }[],
    ...Existing[][],
  ];
  const users = found.flat();
  const roles = roleRows.map((r) => ({
    id: r.id,
    title: r.title,
    grantable: withinCaller(
      auth,
      grantOfRow(
        r,
        moduleRows.filter((m) => m.roleId === r.id).map((m) => m.key),
      ),
    ),
  }));
  return {
    fields,
    values: fields.length && valid.some((r) => r.custom.size) ? await customValuesOf(db, auth, users) : new Map(),
    keys: valid.some((r) => r.groupKeys.length || r.eKeys.length) ? await keysOf(db, auth, users, valid) : null,
    byEmail: new Map(users.map((x) => [x.email, x])),
    byExternalId: new Map(users.filter((x) => x.externalId).map((x) => [x.externalId!, x])),
    byPhone: new Map(users.filter((x) => x.phoneNumber).map((x) => [x.phoneNumber, x])),
    roles: new Map(roles.map((r) => [r.title.toLowerCase(), r])),
    rolesById: new Map(roles.map((r) => [r.id, r])),
  };
}

/** The custom field values of the matched users (one more round trip, only for a file with custom columns). */
async function customValuesOf(db: Db, auth: Auth, users: Existing[]): Promise<Map<number, Map<number, string>>> {
  const v = schema.userFieldValues;
  const out = new Map<number, Map<number, string>>();
  const parts = chunks([...new Set(users.map((x) => x.id))]).map((part) =>
    db
      .select({ userId: v.userId, fieldId: v.fieldId, value: v.value })
      .from(v)
      .where(inCompany(v, auth, inArray(v.userId, part))),
  );
  if (!parts.length) return out;
  const found = (await db.batch(parts as unknown as [BatchItem, ...BatchItem[]])) as unknown as { userId: number; fieldId: number; value: string }[][];
  for (const r of found.flat()) out.set(r.userId, (out.get(r.userId) ?? new Map()).set(r.fieldId, r.value));
  return out;
}

/** The doors, the groups, the matched users' keys and the fobs' holders (one more round trip, only for a file that names keys). */
async function keysOf(db: Db, auth: Auth, users: Existing[], rows: CheckedRow[]): Promise<KeyKnown> {
  // The zone by a subquery, not a join: a batch's rows are objects by column name, and a joined `id` would overwrite the group's.
  const groupsQuery = db
    .select({ group: g, zoneId: g.timeZoneId, zoneName: sql<string | null>`(select name from time_zones where id = ${g.timeZoneId})` })
    .from(g)
    .where(liveInCompany(g, auth));
  const doorsQuery = db.select({ id: d.id, fullName: d.fullName, status: d.status }).from(d).where(liveInCompany(d, auth));
  const heldQueries = chunks([...new Set(users.map((x) => x.id))]).map((part) =>
    db
      .select({ id: k.id, userId: k.userId, isGroup: k.isGroup, deviceId: k.deviceId, groupId: k.groupId, fob: k.fobDeviceId })
      .from(k)
      .where(inCompany(k, auth, inArray(k.userId, part))),
  );
  const fobQueries = chunks([...new Set(rows.flatMap((r) => (r.fob ? [r.fob] : [])))]).map((part) =>
    db
      .selectDistinct({ userId: k.userId, fob: k.fobDeviceId })
      .from(k)
      .where(inCompany(k, auth, and(isNotNull(k.fobDeviceId), inArray(k.fobDeviceId, part)))),
  );
  const [groupRows, doorRows, ...rest] = (await db.batch([groupsQuery, doorsQuery, ...heldQueries, ...fobQueries] as unknown as [BatchItem, ...BatchItem[]])) as unknown as [
    GroupRow[],
    DoorRow[],
    ...unknown[][],
  ];
  const byName = <T>(list: T[], name: (x: T) => string) => {
    const out = new Map<string, T[]>();
    for (const x of list) out.set(name(x).toLowerCase(), [...(out.get(name(x).toLowerCase()) ?? []), x]);
    return out;
  };
  const held = new Map<number, Map<string, { id: number; fob: string | null }[]>>();
  for (const r of rest.slice(0, heldQueries.length).flat() as {
    id: number;
    userId: number;
    isGroup: boolean;
    deviceId: number | null;
    groupId: number | null;
    fob: string | null;
  }[]) {
    const target = r.isGroup ? (r.groupId != null ? `g${r.groupId}` : null) : r.deviceId != null ? `d${r.deviceId}` : null;
    if (!target) continue;
    const mine = held.get(r.userId) ?? held.set(r.userId, new Map()).get(r.userId)!;
    mine.set(target, [...(mine.get(target) ?? []), { id: r.id, fob: r.fob }]);
  }
  const fobOwners = new Map<string, Set<number>>();
  for (const r of rest.slice(heldQueries.length).flat() as { userId: number; fob: string }[]) fobOwners.set(r.fob, (fobOwners.get(r.fob) ?? new Set()).add(r.userId));
  return { doors: byName(doorRows, (x) => x.fullName), groups: byName(groupRows, (x) => x.group.fullName), held, fobOwners };
}

/** A new key a row gives: a permanent full-access e-key to a door, or a group key. */
type NewKey = { column: "e_keys"; door: DoorRow } | { column: "group_keys"; group: GroupRow };
/** The keys a row adds (a key to each named door or group the user has none to) and the existing ones its fob goes on (those without a fob). */
type KeyWrites = { add: NewKey[]; fobOn: { keyId: number; deviceId: number | null; groupId: number | null; label: string }[] };

/** What one list column names: its targets by lower-case name, and why a found one takes no new key. */
type KeyColumn<T> = {
  column: NewKey["column"];
  names: string[];
  byName: Map<string, T[]>;
  held: (x: T) => string;
  label: (x: T) => string;
  closed: (x: T) => string | null;
  unknown: string;
  ambiguous: string;
  add: (x: T) => NewKey;
  ids: (x: T) => { deviceId: number | null; groupId: number | null };
};

/**
 * A row's e-keys, group keys and fob against what is stored: unknown, ambiguous or (for a new key)
 * unusable doors and groups and a fob another user holds are problems. Only additions: a key the user
 * has to a named door or group (of any kind) is kept as it is, one with another fob too; the fob goes
 * on the new keys and on the held ones without a fob, one rule for both columns.
 */
function planKeys(row: CheckedRow, target: Existing | undefined, known: KeyKnown | null, problems: Problem[]): KeyWrites {
  const out: KeyWrites = { add: [], fobOn: [] };
  if (!known || (!row.groupKeys.length && !row.eKeys.length)) return out;
  const held = target ? known.held.get(target.id) : undefined;
  const plan = <T>(c: KeyColumn<T>) => {
    for (const name of c.names) {
      const found = c.byName.get(name.toLowerCase()) ?? [];
      // Two doors or groups may share a name: one the user holds a key to is the one meant (an export names it so).
      const keys = found.flatMap((x) => (held?.get(c.held(x)) ?? []).map((key) => ({ key, x })));
      const closed = found.length === 1 ? c.closed(found[0]) : null;
      if (keys.length) {
        if (row.fob) for (const { key, x } of keys) if (!key.fob) out.fobOn.push({ keyId: key.id, label: c.label(x), ...c.ids(x) });
      } else if (!found.length) problems.push({ column: c.column, message: `${c.unknown}: ${name}` });
      else if (found.length > 1) problems.push({ column: c.column, message: `${c.ambiguous}: ${name}` });
      else if (closed) problems.push({ column: c.column, message: `${closed}: ${name}` });
      else out.add.push(c.add(found[0]));
    }
  };
  plan<DoorRow>({
    column: "e_keys",
    names: row.eKeys,
    byName: known.doors,
    held: (x) => `d${x.id}`,
    label: (x) => x.fullName,
    // As the key panel, which offers configured doors only.
    closed: (x) => (x.status === "configured" ? null : MSG.doorNotConfigured),
    unknown: MSG.unknownDoor,
    ambiguous: MSG.ambiguousDoor,
    add: (door) => ({ column: "e_keys", door }),
    ids: (x) => ({ deviceId: x.id, groupId: null }),
  });
  plan<GroupRow>({
    column: "group_keys",
    names: row.groupKeys,
    byName: known.groups,
    held: (x) => `g${x.group.id}`,
    label: (x) => x.group.fullName,
    closed: (x) => (x.group.status === DEACTIVATED ? MSG.groupDeactivated : null),
    unknown: MSG.unknownGroup,
    ambiguous: MSG.ambiguousGroup,
    add: (group) => ({ column: "group_keys", group }),
    ids: (x) => ({ deviceId: null, groupId: x.group.id }),
  });
  const owners = row.fob ? known.fobOwners.get(row.fob) : undefined;
  if (owners && [...owners].some((id) => id !== target?.id)) problems.push({ column: "fob", message: EKEY_MSG.fobTaken });
  return out;
}

/** The list columns a row adds keys in, in the file's order of columns. */
const addedColumns = (keys: KeyWrites) => (["e_keys", "group_keys"] as const).filter((c) => keys.add.some((a) => a.column === c));

function withinCaller(auth: Auth, grant: Parameters<typeof assertWithinCaller>[1]): boolean {
  try {
    assertWithinCaller(auth, grant);
    return true;
  } catch {
    return false;
  }
}

/** A row's plan: what the preview shows and, for a commit, the values it writes. */
type Plan = ImportRow & { write?: { userId?: number; values: Partial<typeof u.$inferInsert>; role?: Role; custom: Map<number, string>; keys: KeyWrites; fob: string | null } };

/** A required custom field the user would be left without: a problem on its column. */
function missingRequired(fields: CustomField[], has: (fieldId: number) => boolean, problems: Problem[]) {
  for (const f of fields) if (f.required && !has(f.id)) problems.push({ column: f.key, message: CUSTOM_FIELD_MSG.valueRequired });
}

/** The columns of a matched user that the row's values change. */
function changesOf(row: CheckedRow, user: UserInput, target: Existing, role: Role | undefined) {
  const values: Partial<typeof u.$inferInsert> = {};
  const changes: UserCsvColumn[] = [];
  const set = <K extends keyof typeof values>(column: UserCsvColumn, key: K, value: (typeof values)[K], before: unknown) => {
    if (value === before) return;
    values[key] = value;
    if (!changes.includes(column)) changes.push(column);
  };
  set("first_name", "firstName", user.firstName, target.firstName);
  set("last_name", "lastName", user.lastName, target.lastName);
  set("display_name", "displayName", user.displayName, target.displayName);
  set("email", "email", user.email, target.email);
  set("phone", "phoneNumber", user.cell, target.phoneNumber);
  set("country_code", "countryCode", user.countryCode, target.countryCode);
  if (role) set("role", "roleId", role.id, target.roleId);
  if (row.isInactive !== null) set("status", "isInactive", row.isInactive, target.isInactive);
  if (row.externalId) set("external_id", "externalId", row.externalId, target.externalId);
  return { values, changes };
}

/** Each row against what is stored: matched by external id, else e-mail; refused with every reason found. */
function planRows(auth: Auth, rows: CheckedRow[], known: Known): Plan[] {
  const rights = { add: can(auth.permissions, "users", "add"), modify: can(auth.permissions, "users", "modify"), role: can(auth.permissions, "role", "add") };
  // As the key form: a new key needs the users module's add right, a fob put on a key it has its modify right.
  const keyRights = (keys: KeyWrites, problems: Problem[]) => {
    for (const column of addedColumns(keys)) if (!rights.add) problems.push({ column, message: MSG.noKeyRight });
    if (keys.fobOn.length && !rights.modify) problems.push({ column: "fob", message: MSG.noFobRight });
  };
  const matched = new Set<number>();
  return rows.map((row): Plan => {
    const base = { line: row.line, email: row.email, name: row.name };
    const problems = [...row.problems];
    const refuse = (): Plan => ({ ...base, outcome: "refuse", errors: problems });
    const role = row.roleTitle ? known.roles.get(row.roleTitle.toLowerCase()) : undefined;
    if (row.roleTitle && !role) problems.push({ column: "role", message: MSG.unknownRole });
    if (!row.user) return refuse();
    const user = row.user;
    const byExternal = row.externalId ? known.byExternalId.get(row.externalId) : undefined;
    const byEmail = known.byEmail.get(user.email);
    const target = byExternal ?? byEmail;
    if (byExternal && byEmail && byEmail.id !== byExternal.id) problems.push({ column: "email", message: MSG.emailTaken });
    if (!byExternal && byEmail && row.externalId && byEmail.externalId && byEmail.externalId !== row.externalId)
      problems.push({ column: "external_id", message: MSG.externalIdConflict });
    const phoneOwner = known.byPhone.get(user.cell);
    if (phoneOwner && phoneOwner.id !== target?.id) problems.push({ column: "phone", message: MSG.phoneTaken });
    if (target && matched.has(target.id)) problems.push({ column: null, message: MSG.sameUserTwice });
    if (target) matched.add(target.id);
    const keys = planKeys(row, target, known.keys, problems);
    if (problems.length) return refuse();
    if (!target) {
      if (!rights.add) problems.push({ column: null, message: MSG.noAddRight });
      if (role) checkRole(role, rights.role, problems);
      missingRequired(known.fields, (id) => row.custom.has(id), problems);
      keyRights(keys, problems);
      if (problems.length) return refuse();
      const values = {
        firstName: user.firstName,
        lastName: user.lastName,
        displayName: user.displayName,
        email: user.email,
        countryCode: user.countryCode,
        phoneNumber: user.cell,
        roleId: role?.id ?? null,
        isInactive: row.isInactive ?? false,
        externalId: row.externalId,
      };
      return { ...base, outcome: "create", write: { values, role, custom: row.custom, keys, fob: row.fob } };
    }
    const { values, changes } = changesOf(row, user, target, role);
    const stored = known.values.get(target.id) ?? new Map<number, string>();
    const custom = new Map([...row.custom].filter(([id, value]) => stored.get(id) !== value));
    const ownChanges = [...changes, ...known.fields.filter((f) => custom.has(f.id)).map((f) => f.key)];
    const changed = [...ownChanges, ...addedColumns(keys), ...(keys.fobOn.length ? ["fob"] : [])];
    if (!changed.length) return { ...base, outcome: "unchanged" };
    keyRights(keys, problems);
    if (ownChanges.length) {
      missingRequired(known.fields, (id) => row.custom.has(id) || stored.has(id), problems);
      if (!rights.modify) problems.push({ column: null, message: MSG.noModifyRight });
      if (target.isSuperAdmin && !auth.user.isSuperAdmin) problems.push({ column: null, message: MSG.superAdminOnly });
    }
    if (values.isInactive === true && target.id === auth.user.id) problems.push({ column: "status", message: MSG.notSelf });
    if (role && changes.includes("role")) {
      if (target.id === auth.user.id) problems.push({ column: "role", message: MSG.ownRole });
      checkRole(role, rights.role, problems);
      // Taking a role away is a change of rights too: the role held now must be within the caller's.
      const current = target.roleId != null ? known.rolesById.get(target.roleId) : undefined;
      const escalation = problems.some((p) => p.message === MSG.roleEscalation || p.message === MSG.noRoleRight);
      if (current && !current.grantable && !escalation) problems.push({ column: "role", message: MSG.roleEscalation });
    }
    if (problems.length) return refuse();
    return { ...base, outcome: "change", changes: changed, write: { userId: target.id, values, role: changes.includes("role") ? role : undefined, custom, keys, fob: row.fob } };
  });
}

function checkRole(role: Role, mayGiveRoles: boolean, problems: Problem[]) {
  if (!mayGiveRoles) problems.push({ column: "role", message: MSG.noRoleRight });
  else if (!role.grantable) problems.push({ column: "role", message: MSG.roleEscalation });
}

const countsOf = (plans: Plan[]): ImportCounts => ({
  create: plans.filter((p) => p.outcome === "create").length,
  change: plans.filter((p) => p.outcome === "change").length,
  unchanged: plans.filter((p) => p.outcome === "unchanged").length,
  refuse: plans.filter((p) => p.outcome === "refuse").length,
});

/** Without `write`: what the preview and the API show. */
const shown = ({ write: _write, ...row }: Plan): ImportRow => row;

/** The company's default country and its custom fields, in one round trip. */
async function companyOf(db: Db, auth: Auth): Promise<{ country: string; fields: CustomField[] }> {
  const s = schema.companySettings;
  const [rows, fieldRows] = await db.batch([db.select({ cc: s.defaultCountryCode }).from(s).where(eq(s.companyId, auth.company.id)).limit(1), fieldsQuery(db, auth.company.id)]);
  return { country: rows[0]?.cc ?? "001", fields: fieldsOf(fieldRows) };
}

function assertMayImport(auth: Auth) {
  if (!can(auth.permissions, "users", "add") && !can(auth.permissions, "users", "modify")) assertCan(auth, "users", "add");
}

export type ImportPreview = { counts: ImportCounts; chunks: number; rows: ImportRow[] };

/** What the file would do, row by row (unchanged rows only counted). Writes nothing. */
export async function previewUserImport(db: Db, auth: Auth, csv: string): Promise<ImportPreview> {
  assertMayImport(auth);
  const company = await companyOf(db, auth);
  const file = checkFile(csv, company.country, undefined, company.fields);
  const plans = planRows(auth, file.rows, await lookUp(db, auth, file.rows, company.fields));
  return { counts: countsOf(plans), chunks: file.chunks, rows: plans.filter((p) => p.outcome !== "unchanged").map(shown) };
}

export type ImportPart = { chunk: number; chunks: number; counts: ImportCounts; message: string };

/**
 * Writes part `chunk` of the file (IMPORT_CHUNK rows from chunk × IMPORT_CHUNK) in one D1 batch, each
 * created or changed user with its audit entry. The rows before it are read only to refuse repeats.
 */
export async function commitUserImport(db: Db, auth: Auth, core: Core, csv: string, chunk: number, now: number): Promise<ImportPart> {
  assertMayImport(auth);
  const company = await companyOf(db, auth);
  const file = checkFile(csv, company.country, chunk, company.fields);
  const rows = file.rows;
  const plans = planRows(auth, rows, await lookUp(db, auth, rows, company.fields));
  const statements = [
    ...plans.flatMap((p) => writeStatements(db, auth, p, now)),
    ...customValueStatement(db, auth, plans),
    ...keyStatements(db, auth, plans, companyToday(auth, core, now), now),
  ];
  try {
    if (statements.length) await db.batch(statements as [BatchItem, ...BatchItem[]]);
  } catch (e) {
    // Another user was given one of the part's fobs since it was checked: the database refuses it (nothing of the part is written).
    if (String((e as Error)?.message).includes("fob_taken")) throw new ServiceError(422, EKEY_MSG.fobTaken);
    throw e;
  }
  return { chunk, chunks: file.chunks, counts: countsOf(plans), message: MSG.imported };
}

/** A new user's id inside the part's batch: its live e-mail is unique in the company. */
const userIdSql = (companyId: number, entry: string) =>
  sql.raw(`coalesce(json_extract(${entry}, '$.u'), (select id from users where company_id = ${companyId} and email = json_extract(${entry}, '$.e') and deleted_at is null))`);

/**
 * The part's keys in three statements whatever their number (a part stays within D1's queries per
 * invocation): the new keys (an e-key: permanent full access, as the key panel's "Full access" gives it;
 * a group key: the group's schedule from the company's today, never ending, as the key form and a
 * directory link give it), the fob put on keys that had none, and their audit entries
 * ("eKey Assigned", "eKey Modified"). The feed's triggers on `ekey_assignments` send every key to the
 * gateways, and the fob trigger refuses a fob another user got in the meantime.
 */
function keyStatements(db: Db, auth: Auth, plans: Plan[], today: string, now: number): BatchItem[] {
  const companyId = auth.company.id;
  const added: Record<string, unknown>[] = [];
  const fobbed: { k: number; f: string }[] = [];
  const audits: (ActivityEntry & { email: string })[] = [];
  for (const p of plans) {
    if (!p.write) continue;
    const { userId, keys, fob } = p.write;
    const email = p.write.values.email ?? p.email;
    for (const a of keys.add) {
      const plan =
        a.column === "e_keys"
          ? deviceKeyPlan(a.door)
          : groupKeyPlan(a.group.group, a.group.zoneId != null && a.group.zoneName != null ? { id: a.group.zoneId, name: a.group.zoneName } : null, today);
      added.push({ u: userId ?? null, e: email, ...keyValues(plan, fob, now) });
      audits.push({
        email,
        companyId,
        name: "eKey Assigned",
        createdByUserId: auth.user.id,
        targetUserId: userId ?? null,
        targetDeviceId: plan.target.deviceId,
        targetDeviceGroupId: plan.target.groupId,
        summary: `${plan.target.label}: ${plan.schedule.accessType}`,
        details: { imported: true },
        at: now,
      });
    }
    for (const on of keys.fobOn) {
      fobbed.push({ k: on.keyId, f: fob! });
      audits.push({
        email,
        companyId,
        name: "eKey Modified",
        createdByUserId: auth.user.id,
        targetUserId: userId ?? null,
        targetDeviceId: on.deviceId,
        targetDeviceGroupId: on.groupId,
        summary: `${on.label}: fob`,
        details: { imported: true, fob: true },
        at: now,
      });
    }
  }
  const out: BatchItem[] = [];
  const j = (path: string) => sql.raw(`json_extract(j.value, '$.${path}')`);
  if (added.length) {
    const fromEntry = Object.fromEntries(
      [
        "isGroup",
        "deviceId",
        "groupId",
        "accessType",
        "status",
        "startDate",
        "endDate",
        "startTime",
        "endTime",
        "scheduleDays",
        "isNeverEnd",
        "isAllDay",
        "timeZoneId",
        "fobDeviceId",
        "holidayCalendarId",
        "onHolidays",
      ].map((c) => [c, j(c)]),
    );
    out.push(
      insertSelect(
        db,
        k,
        { ...fromEntry, companyId: sql`${companyId}`, userId: userIdSql(companyId, "j.value"), createdAt: sql`${now}`, updatedAt: sql`${now}` },
        JSON.stringify(added),
      ),
    );
  }
  if (fobbed.length) {
    const entries = JSON.stringify(fobbed);
    out.push(
      db
        .update(k)
        .set({ fobDeviceId: sql`(select json_extract(j.value, '$.f') from json_each(${entries}) j where json_extract(j.value, '$.k') = ${k.id})`, updatedAt: now })
        .where(and(eq(k.companyId, companyId), isNull(k.fobDeviceId), sql`${k.id} in (select json_extract(j.value, '$.k') from json_each(${entries}) j)`)),
    );
  }
  if (audits.length) out.push(activityInsertEach(db, companyId, audits));
  return out;
}

/**
 * `insert into table select … from json_each(entries) j`: one statement for any number of rows. Drizzle
 * names every column of the table, in its order; a column without an expression here is null.
 */
function insertSelect<T extends typeof k | typeof schema.activityLogs>(db: Db, table: T, exprs: Record<string, SQL>, entries: string): BatchItem {
  const columns = Object.keys(getTableColumns(table)).map((c) => exprs[c] ?? sql`null`);
  // "where true": SQLite reads an INSERT … SELECT before an upsert clause only with a WHERE clause.
  return db.insert(table).select(sql`select ${sql.join(columns, sql`, `)} from json_each(${entries}) j where true`) as unknown as BatchItem;
}

/** Audit entries in one statement (their rows as activityInsert writes them, a support session's copies included); a new user found by e-mail. */
function activityInsertEach(db: Db, companyId: number, entries: (ActivityEntry & { email: string })[]): BatchItem {
  const rows = entries.flatMap((e) =>
    activityRows(e).map(({ activityTypeId: _type, ...row }, i) => ({ ...row, name: i === 0 ? e.name : "Support Action", u: row.targetUserId, e: i === 0 ? e.email : null })),
  );
  const j = (path: string) => sql.raw(`json_extract(j.value, '$.${path}')`);
  const fromEntry = Object.fromEntries(
    ["companyId", "operationType", "createdByUserId", "targetDeviceId", "targetDeviceGroupId", "summary", "detailsJson", "gpsLocation", "eventId", "activityTimestamp"].map((c) => [
      c,
      j(c),
    ]),
  );
  return insertSelect(
    db,
    schema.activityLogs,
    {
      ...fromEntry,
      activityTypeId: sql`(select id from activity_types where name = ${j("name")})`,
      targetUserId: sql`case when ${j("e")} is null then ${j("u")} else ${userIdSql(companyId, "j.value")} end`,
      createdAt: sql`cast(unixepoch('subsecond') * 1000 as integer)`,
    },
    JSON.stringify(rows),
  );
}

/**
 * Every custom field value of the part in one statement after the users' own (a part stays within D1's
 * queries per invocation): a new user's id is found by its e-mail, as its audit entry's is.
 */
function customValueStatement(db: Db, auth: Auth, plans: Plan[]): BatchItem[] {
  const entries = plans.flatMap((p) => (p.write ? [...p.write.custom].map(([f, v]) => ({ u: p.write!.userId ?? null, e: p.write!.values.email ?? p.email, f, v })) : []));
  if (!entries.length) return [];
  const companyId = auth.company.id;
  const v = schema.userFieldValues;
  const userId = sql`coalesce(json_extract(j.value, '$.u'), (select id from users where company_id = ${companyId} and email = json_extract(j.value, '$.e') and deleted_at is null))`;
  return [
    db
      .insert(v)
      // "where true": SQLite reads an upsert's SELECT only with a WHERE clause.
      .select(sql`select ${companyId}, ${userId}, json_extract(j.value, '$.f'), json_extract(j.value, '$.v') from json_each(${JSON.stringify(entries)}) j where true`)
      .onConflictDoUpdate({ target: [v.userId, v.fieldId], set: { value: sql`excluded.value` } }),
  ];
}

function writeStatements(db: Db, auth: Auth, plan: Plan, now: number): BatchItem[] {
  if (!plan.write) return [];
  const { userId, values, role } = plan.write;
  // A row that only gives keys or a fob writes no "User Modified": its keys' own entries say what changed.
  if (userId !== undefined && !Object.keys(values).length) return [];
  const companyId = auth.company.id;
  // A new user's id is unknown inside the batch; its live e-mail is unique in the company.
  const target: number | SQL = userId ?? sql`(select id from users where company_id = ${companyId} and email = ${values.email} and deleted_at is null)`;
  const roleEntry = role
    ? [
        activityInsert(db, {
          companyId,
          name: "Role Assigned",
          createdByUserId: auth.user.id,
          targetUserId: target,
          summary: `${role.title} → ${plan.name}`,
          details: { role_id: role.id },
          at: now,
        }),
      ]
    : [];
  if (userId === undefined) {
    return [
      db.insert(u).values({ ...(values as typeof u.$inferInsert), companyId, accountSetupPending: true, createdAt: now, updatedAt: now }),
      activityInsert(db, {
        companyId,
        name: "User Created",
        createdByUserId: auth.user.id,
        targetUserId: target,
        summary: `${plan.name} (${plan.email})`,
        details: { invite_sent: false, imported: true },
        at: now,
      }),
      ...roleEntry,
    ];
  }
  return [
    db
      .update(u)
      .set({ ...values, updatedAt: now })
      .where(liveInCompany(u, auth, eq(u.id, userId))),
    activityInsert(db, {
      companyId,
      name: "User Modified",
      createdByUserId: auth.user.id,
      targetUserId: userId,
      summary: plan.name,
      // The webhook event tells a deactivation from other changes (decision 0078).
      details: { imported: true, columns: plan.changes, ...(values.isInactive === true && { deactivated: true }) },
      at: now,
    }),
    ...roleEntry,
  ];
}
