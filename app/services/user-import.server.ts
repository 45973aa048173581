/**
 * Users from a CSV file (decision 0089): the file is read and checked (`user-import-file.server.ts`), each
 * row is matched to a live user of the caller's company by external id or e-mail, and the preview says
 * what each row would do. Nothing is written until the commit, which runs the same checks again and
 * writes one part (IMPORT_CHUNK rows) per D1 batch. A row that matches a user and changes nothing writes
 * nothing: importing the same file twice changes nothing the second time. The export
 * (`user-export.server.ts`) writes the same columns.
 */
import { eq, inArray, sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { CUSTOM_FIELD_MSG } from "~/schemas/custom-fields";
import { USER_IMPORT_MSG as MSG, type ImportCounts, type ImportRow, type UserCsvColumn } from "~/schemas/user-import";
import type { UserInput } from "~/schemas/users";
import { fieldsOf, fieldsQuery, type CustomField } from "~/services/custom-fields.server";
import { assertWithinCaller, grantOfRow } from "~/services/roles.server";
import { checkFile, type CheckedRow, type Problem } from "~/services/user-import-file.server";
import { activityInsert } from "~/utils/activity-insert.server";
import { assertCan, type Auth } from "~/utils/auth-guards.server";
import { chunks, schema, type Db } from "~/utils/db.server";
import { can } from "~/utils/permissions";
import { inCompany, liveInCompany } from "~/utils/tenant.server";

const u = schema.users;
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

function withinCaller(auth: Auth, grant: Parameters<typeof assertWithinCaller>[1]): boolean {
  try {
    assertWithinCaller(auth, grant);
    return true;
  } catch {
    return false;
  }
}

/** A row's plan: what the preview shows and, for a commit, the values it writes. */
type Plan = ImportRow & { write?: { userId?: number; values: Partial<typeof u.$inferInsert>; role?: Role; custom: Map<number, string> } };

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
    if (problems.length) return refuse();
    if (!target) {
      if (!rights.add) problems.push({ column: null, message: MSG.noAddRight });
      if (role) checkRole(role, rights.role, problems);
      missingRequired(known.fields, (id) => row.custom.has(id), problems);
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
      return { ...base, outcome: "create", write: { values, role, custom: row.custom } };
    }
    const { values, changes } = changesOf(row, user, target, role);
    const stored = known.values.get(target.id) ?? new Map<number, string>();
    const custom = new Map([...row.custom].filter(([id, value]) => stored.get(id) !== value));
    const changed = [...changes, ...known.fields.filter((f) => custom.has(f.id)).map((f) => f.key)];
    if (!changed.length) return { ...base, outcome: "unchanged" };
    missingRequired(known.fields, (id) => row.custom.has(id) || stored.has(id), problems);
    if (!rights.modify) problems.push({ column: null, message: MSG.noModifyRight });
    if (target.isSuperAdmin && !auth.user.isSuperAdmin) problems.push({ column: null, message: MSG.superAdminOnly });
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
    return { ...base, outcome: "change", changes: changed, write: { userId: target.id, values, role: changes.includes("role") ? role : undefined, custom } };
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
export async function commitUserImport(db: Db, auth: Auth, csv: string, chunk: number, now: number): Promise<ImportPart> {
  assertMayImport(auth);
  const company = await companyOf(db, auth);
  const file = checkFile(csv, company.country, chunk, company.fields);
  const rows = file.rows;
  const plans = planRows(auth, rows, await lookUp(db, auth, rows, company.fields));
  const statements = [...plans.flatMap((p) => writeStatements(db, auth, p, now)), ...customValueStatement(db, auth, plans)];
  if (statements.length) await db.batch(statements as [BatchItem, ...BatchItem[]]);
  return { chunk, chunks: file.chunks, counts: countsOf(plans), message: MSG.imported };
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
