/**
 * Companies and their hierarchy (spec part 2 §2 Company screens, §3, §4, §5, §7 `company/*`).
 *
 * Who sees what: the root company sees every company; any other non-ec company (a reseller)
 * sees its own subtree (its children, their children, ...) and nothing else; an ec company sees
 * none of this (403). A company outside the caller's view is a 404, never visible, never changed.
 * Viewing needs the `company` or `var_panel` module; adding, modifying and deleting need `company`.
 */
import { and, asc, desc, eq, isNull, ne, sql, type SQL } from "drizzle-orm";
import { allowedParentTypes, COMPANY_SETUP_MSG, generateCompanyCode, type CompanyCreateInput, type CompanySetup, type CompanyUpdateInput } from "~/schemas/companies";
import { inviteStatements } from "~/services/invites.server";
import { activityInsert } from "~/utils/activity-insert.server";
import { assertCan, type Auth } from "~/utils/auth-guards.server";
import { countWhere, schema, type Db } from "~/utils/db.server";
import { countryDefaults } from "~/utils/country-defaults";
import { callingCode, splitPhone, wireCallingCode } from "~/utils/phone";
import { forbidden, notFound, ServiceError } from "~/utils/errors.server";
import type { ModuleKey } from "~/utils/permissions";

const c = schema.companies;
type BatchItem = Parameters<Db["batch"]>[0][number];

export const COMPANY_MSG = {
  created: "Company created successfully",
  modified: "Company modified successfully",
  removed: "Company removed successfully",
  notFound: "The provided company code is invalid",
  codeTaken: "This company ID is already in use",
  pairTaken: "A company with this name and email already exists",
  badParent: "The parent company is not allowed for this company type",
  hasChildren: "This company still has child companies; remove or move them first",
  hasDevices: "This company still has configured devices; retire or transfer them first",
  ownCompany: "You cannot remove or de-activate your own company",
  emailTaken: "This email already exists in this company",
} as const;

/** Modules a new company's first administrator role holds (its point of contact is its super admin). */
export const COMPANY_ADMIN_MODULES: readonly ModuleKey[] = [
  "users",
  "devices",
  "device_group",
  "activity",
  "support",
  "company_settings",
  "change_password",
  "role",
  "billing_portal",
];
const RESELLER_EXTRA_MODULES: readonly ModuleKey[] = ["var_panel"];
export const COMPANY_ADMIN_ROLE = "Company Admin";

// ---------------------------------------------------------------- scope

/** Ids of every company below `rootId` (not itself), as a subquery. */
export const subtreeOf = (rootId: number) =>
  sql`(with recursive sub(id) as (
    select id from companies where parent_id = ${rootId}
    union select companies.id from companies join sub on companies.parent_id = sub.id
  ) select id from sub)`;

/** The caller may look at the company area at all: not an ec company, and holding one of `modules`. */
export function assertPlatformCaller(auth: Auth, modules: ModuleKey | readonly ModuleKey[] = ["company", "var_panel"], action: "view" | "add" | "modify" | "delete" = "view") {
  if (auth.company.type === "ec") forbidden();
  assertCan(auth, modules, action);
}

const isRoot = (auth: Auth) => auth.company.type === "root";

/** Live companies the caller sees: every one for root, the caller's subtree for a reseller. */
export function visibleCompanies(auth: Auth, ...more: (SQL | undefined)[]): SQL {
  return and(isNull(c.deletedAt), isRoot(auth) ? undefined : sql`companies.id in ${subtreeOf(auth.company.id)}`, ...more) as SQL;
}

/** One live company in the caller's view, or 404. */
export async function findVisibleCompany(db: Db, auth: Auth, id: number) {
  if (!Number.isInteger(id) || id <= 0) notFound(COMPANY_MSG.notFound);
  const row = await db.query.companies.findFirst({ where: visibleCompanies(auth, eq(c.id, id)) });
  return row ?? notFound(COMPANY_MSG.notFound);
}

// ---------------------------------------------------------------- reads

const counts = {
  totalDevices: sql<number>`(select count(*) from devices where devices.company_id = companies.id and devices.deleted_at is null)`,
  totalUsers: sql<number>`(select count(*) from users where users.company_id = companies.id and users.deleted_at is null)`,
  totalInvoices: sql<number>`(select count(*) from invoices where invoices.customer_company_id = companies.id)`,
};

export const COMPANY_SORTS = {
  name: c.name,
  code: c.code,
  fullName: sql`${c.pocFirstName} || ' ' || ${c.pocLastName}`,
  email: c.pocEmail,
  phone: c.pocPhoneNumber,
  devices: counts.totalDevices,
  users: counts.totalUsers,
  invoices: counts.totalInvoices,
  active: c.isDeactive,
} as const;

/** A company's name, 4-character code and type, as lists and headings show it. */
export type CompanyRef = { name: string; code: string; type: string };

/** A company in the list; the API's names are mapped in `app/api/endpoints/companies.server.ts` (decision 0017). */
export type CompanyListRow = CompanyRef & {
  id: number;
  contactName: string;
  email: string;
  countryCode: string;
  phone: string;
  parent: CompanyRef | null;
  isDeactive: boolean;
  totalDevices: number;
  totalUsers: number;
  totalInvoices: number;
};

export type ListCompaniesOptions = {
  sort?: { key: string; desc: boolean };
  page?: { offset: number; limit: number };
  /** Matches name, code or e-mail (case-insensitive). */
  search?: string;
};

export async function listCompanies(db: Db, auth: Auth, opts: ListCompaniesOptions = {}): Promise<{ rows: CompanyListRow[]; total: number }> {
  assertPlatformCaller(auth);
  const q = opts.search?.trim().toLowerCase();
  const like = q ? `%${q.replace(/[\\%_]/g, (m) => `\\${m}`)}%` : null;
  const where = visibleCompanies(
    auth,
    like ? sql`(lower(${c.name}) like ${like} escape '\\' or lower(${c.code}) like ${like} escape '\\' or lower(${c.pocEmail}) like ${like} escape '\\')` : undefined,
  );
  const key = opts.sort && opts.sort.key in COMPANY_SORTS ? (opts.sort.key as keyof typeof COMPANY_SORTS) : "name";
  const dir = opts.sort?.desc ? desc : asc;
  const p = sql.raw("parent");
  const base = db
    .select({
      id: c.id,
      name: c.name,
      code: c.code,
      type: c.type,
      first: c.pocFirstName,
      last: c.pocLastName,
      email: c.pocEmail,
      phone: c.pocPhoneNumber,
      off: c.isDeactive,
      parentName: sql<string | null>`(select ${p}.name from companies ${p} where ${p}.id = companies.parent_id)`,
      parentCode: sql<string | null>`(select ${p}.code from companies ${p} where ${p}.id = companies.parent_id)`,
      parentType: sql<string | null>`(select ${p}.type from companies ${p} where ${p}.id = companies.parent_id)`,
      ...counts,
    })
    .from(c)
    .where(where)
    .orderBy(dir(COMPANY_SORTS[key]), asc(c.id));
  const pageQuery = opts.page ? base.limit(opts.page.limit).offset(opts.page.offset) : base;
  const [rows, totals] = await db.batch([pageQuery, countWhere(db, c, where)]);
  return {
    rows: rows.map((r) => ({
      id: r.id,
      name: r.name,
      code: r.code,
      type: r.type,
      contactName: `${r.first} ${r.last}`.trim(),
      email: r.email,
      countryCode: splitPhone(r.phone).countryCode,
      phone: r.phone,
      parent: r.parentCode ? { name: r.parentName ?? "", code: r.parentCode, type: r.parentType ?? "" } : null,
      isDeactive: r.off,
      totalDevices: Number(r.totalDevices),
      totalUsers: Number(r.totalUsers),
      totalInvoices: Number(r.totalInvoices),
    })),
    total: Number(totals[0]?.n ?? 0),
  };
}

export type CompanyDetails = CompanyRef & {
  id: number;
  parent: CompanyRef | null;
  discountPercentage: number;
  pocFirstName: string;
  pocLastName: string;
  pocEmail: string;
  pocCountryCode: string;
  pocPhoneNumber: string;
  nextBillingDate: string | null;
  isDeactive: boolean;
  /** The gateway cell serving its doors (docs/decisions/0050-cells.md). */
  cell: string;
  totalDevices: number;
  totalUsers: number;
  totalInvoices: number;
};

/** One company in the caller's view (part 2 §3), with its parent and counts. */
export async function getCompanyDetails(db: Db, auth: Auth, id: number): Promise<CompanyDetails> {
  assertPlatformCaller(auth);
  const row = await findVisibleCompany(db, auth, id);
  const [parent, totals] = await db.batch([
    db
      .select({ name: c.name, code: c.code, type: c.type })
      .from(c)
      .where(eq(c.id, row.parentId ?? 0))
      .limit(1),
    db.select(counts).from(c).where(eq(c.id, row.id)),
  ]);
  return {
    id: row.id,
    name: row.name,
    code: row.code,
    type: row.type,
    parent: parent[0] ?? null,
    discountPercentage: row.discountPercentage,
    pocFirstName: row.pocFirstName,
    pocLastName: row.pocLastName,
    pocEmail: row.pocEmail,
    // Stored as E.164 (decision 0037); the form edits the calling code and the national number.
    pocCountryCode: splitPhone(row.pocPhoneNumber).countryCode,
    pocPhoneNumber: splitPhone(row.pocPhoneNumber).phoneNumber,
    nextBillingDate: row.nextBillingDate,
    isDeactive: row.isDeactive,
    cell: row.cell,
    totalDevices: Number(totals[0]?.totalDevices ?? 0),
    totalUsers: Number(totals[0]?.totalUsers ?? 0),
    totalInvoices: Number(totals[0]?.totalInvoices ?? 0),
  };
}

export type ParentOption = CompanyRef & { id: number };

/**
 * Companies that may be a parent, for the form's drop-down: root and var companies in view
 * (a reseller also gets itself). The form narrows them by the chosen type (`allowedParentTypes`).
 */
export async function listParentOptions(db: Db, auth: Auth): Promise<ParentOption[]> {
  assertPlatformCaller(auth);
  const inView = isRoot(auth) ? isNull(c.deletedAt) : and(isNull(c.deletedAt), sql`(${c.id} = ${auth.company.id} or ${c.id} in ${subtreeOf(auth.company.id)})`);
  return db
    .select({ id: c.id, name: c.name, code: c.code, type: c.type })
    .from(c)
    .where(and(inView, sql`${c.type} in ('root', 'var')`, eq(c.isDeactive, false)))
    .orderBy(asc(c.name), asc(c.id));
}

/** Is `code` free (case-insensitively, deleted companies included: a code is never reused)? */
export async function isCodeFree(db: Db, code: string): Promise<boolean> {
  const row = await db
    .select({ id: c.id })
    .from(c)
    .where(sql`upper(${c.code}) = ${code.toUpperCase()}`)
    .limit(1);
  return row.length === 0;
}

/** A random code no company uses (for the form's generate button); a few tries are plenty in 35^4 codes. */
export async function freeCompanyCode(db: Db, auth: Auth): Promise<string> {
  assertPlatformCaller(auth, "company", "add");
  for (let i = 0; i < 8; i++) {
    const code = generateCompanyCode();
    if (await isCodeFree(db, code)) return code;
  }
  throw new ServiceError(422, "Could not generate a free company ID; try again");
}

// ---------------------------------------------------------------- changes

async function assertPairFree(db: Db, name: string, email: string, exceptId?: number) {
  const row = await db
    .select({ id: c.id })
    .from(c)
    .where(and(isNull(c.deletedAt), sql`lower(${c.name}) = ${name.toLowerCase()}`, sql`lower(${c.pocEmail}) = ${email.toLowerCase()}`, exceptId ? ne(c.id, exceptId) : undefined))
    .limit(1);
  if (row.length) throw new ServiceError(422, COMPANY_MSG.pairTaken, { fieldErrors: { companyName: [COMPANY_MSG.pairTaken] } });
}

/** The parent must be in the caller's view (or be the caller's own company) and of an allowed type. */
async function resolveParent(db: Db, auth: Auth, code: string, type: string) {
  const parent = await db.query.companies.findFirst({ where: and(isNull(c.deletedAt), sql`upper(${c.code}) = ${code}`) });
  const inView =
    parent &&
    (isRoot(auth) ||
      parent.id === auth.company.id ||
      (await findVisibleCompany(db, auth, parent.id).then(
        () => true,
        () => false,
      )));
  if (!parent || !inView) throw new ServiceError(422, COMPANY_MSG.notFound, { fieldErrors: { parentCompanyId: [COMPANY_MSG.notFound] } });
  if (!allowedParentTypes(type).includes(parent.type)) throw new ServiceError(422, COMPANY_MSG.badParent, { fieldErrors: { parentCompanyId: [COMPANY_MSG.badParent] } });
  return parent;
}

export type NewCompany = CompanyCreateInput;

/** The columns the company form edits, written alike by a create and an update. */
function formColumns(v: CompanyCreateInput | CompanyUpdateInput) {
  return {
    name: v.companyName,
    discountPercentage: v.discountPercentage,
    pocFirstName: v.POCFirstName,
    pocLastName: v.POCLastName,
    pocEmail: v.POCEmail,
    pocCountryCode: v.POCCountryCode,
    pocPhoneNumber: v.POCPhoneNumber,
    nextBillingDate: v.nextBillingDate,
    isDeactive: v.isDeactive,
  };
}

/** A company's starting settings from a country alone (an accepted request): its main zone, UTC when it has none. */
export function setupFromCountry(countryCode: string): CompanySetup {
  const d = countryDefaults(countryCode);
  return { timeZone: d?.timeZone ?? "UTC", countryCode: wireCallingCode(callingCode(countryCode) ?? "1"), language: d?.language ?? "en" };
}

/** The zone a setup names, as its picker id; an unknown name is refused on its field. */
async function zoneIdOf(db: Db, name: string): Promise<number> {
  const [row] = await db.select({ id: schema.timeZones.id }).from(schema.timeZones).where(eq(schema.timeZones.name, name)).limit(1);
  if (!row) throw new ServiceError(400, COMPANY_SETUP_MSG.badTimeZone, { fieldErrors: { timeZone: [COMPANY_SETUP_MSG.badTimeZone] } });
  return row.id;
}

/**
 * The statements that create a company with its first administrator: the company, its settings (zone,
 * default phone country and mail language: decision 0055), a "Company Admin" role, its point of contact
 * as an active super admin whose account setup is pending, and the invite with its set-password link.
 * Ids are unknown inside a batch, so later rows find the company by its (unique) code. The caller adds
 * its audit entries and runs them in one batch.
 */
export async function provisionCompany(
  db: Db,
  v: Omit<NewCompany, "setup"> & { parentId: number; setup: CompanySetup },
  ctx: { origin: string; now: number },
): Promise<BatchItem[]> {
  const companyId = sql`(select id from companies where code = ${v.companyId})`;
  const roleId = sql`(select id from roles where company_id = ${companyId} and role_title = ${COMPANY_ADMIN_ROLE})`;
  const userId = sql`(select id from users where company_id = ${companyId} and email = ${v.POCEmail} and deleted_at is null)`;
  const modules = v.companyType === "ec" ? COMPANY_ADMIN_MODULES : [...COMPANY_ADMIN_MODULES, ...RESELLER_EXTRA_MODULES];
  const timeZoneId = await zoneIdOf(db, v.setup.timeZone);
  const invite = await inviteStatements(
    db,
    { id: userId, companyId, email: v.POCEmail, isSentinel: true, isSuperAdmin: true },
    { name: v.companyName, code: v.companyId, language: v.setup.language },
    ctx,
  );
  return [
    db.insert(c).values({
      code: v.companyId,
      type: v.companyType,
      parentId: v.parentId,
      ...formColumns(v),
      createdAt: ctx.now,
      updatedAt: ctx.now,
    }),
    db.insert(schema.companySettings).values({ companyId, defaultTimeZoneId: timeZoneId, defaultCountryCode: v.setup.countryCode, language: v.setup.language }),
    db.insert(schema.roles).values({
      companyId,
      title: COMPANY_ADMIN_ROLE,
      description: "Full administration",
      permissionAll: true,
      permissionAdd: true,
      permissionModify: true,
      permissionDelete: true,
      permissionView: true,
      createdAt: ctx.now,
      updatedAt: ctx.now,
    }),
    db.insert(schema.roleModules).values(modules.map((m) => ({ roleId, companyId, moduleKey: m }))),
    db.insert(schema.users).values({
      companyId,
      roleId,
      firstName: v.POCFirstName,
      lastName: v.POCLastName,
      displayName: `${v.POCLastName}, ${v.POCFirstName}`,
      email: v.POCEmail,
      countryCode: v.POCCountryCode,
      phoneNumber: v.POCPhoneNumber,
      isSuperAdmin: true,
      isSentinel: true,
      accountSetupPending: true,
      createdAt: ctx.now,
      updatedAt: ctx.now,
    }),
    ...invite,
  ];
}

/** Checks a new company (type, parent, code, pair) in the caller's view; returns it with its parent's id. */
async function checkNewCompany(db: Db, auth: Auth, v: CompanyCreateInput) {
  const parent = await resolveParent(db, auth, v.parentCompanyId, v.companyType);
  if (!(await isCodeFree(db, v.companyId))) throw new ServiceError(422, COMPANY_MSG.codeTaken, { fieldErrors: { companyId: [COMPANY_MSG.codeTaken] } });
  await assertPairFree(db, v.companyName, v.POCEmail);
  return { ...v, parentId: parent.id };
}

/** POST company/addCompany: the company, its administrator and the invite, with 'Created Company'. */
export async function addCompany(db: Db, auth: Auth, input: CompanyCreateInput, ctx: { origin: string; now: number }): Promise<{ id: number; code: string; message: string }> {
  assertPlatformCaller(auth, "company", "add");
  const v = await checkNewCompany(db, auth, input);
  await db.batch([
    ...((await provisionCompany(db, v, ctx)) as [BatchItem, ...BatchItem[]]),
    activityInsert(db, {
      companyId: auth.company.id,
      name: "Created Company",
      createdByUserId: auth.user.id,
      summary: `${v.companyName} (${v.companyId})`,
      details: { company_id: v.companyId, company_type: v.companyType },
      at: ctx.now,
    }),
  ]);
  const row = await db.query.companies.findFirst({ where: eq(c.code, v.companyId), columns: { id: true } });
  return { id: row!.id, code: v.companyId, message: COMPANY_MSG.created };
}

/** Ends every session of a company's users (deactivation, removal); the database tells gateways (decision 0030). */
function cutOff(db: Db, companyId: number): BatchItem[] {
  return [db.delete(schema.sessions).where(eq(schema.sessions.companyId, companyId))];
}

/** PUT company/updateCompany: type, parent and code are locked. De-activating ends the company's sessions and reaches gateways. */
export async function updateCompany(db: Db, auth: Auth, v: CompanyUpdateInput, now: number): Promise<{ message: string }> {
  assertPlatformCaller(auth, "company", "modify");
  const row = await findVisibleCompany(db, auth, v.id);
  if (v.isDeactive && row.id === auth.company.id) throw new ServiceError(422, COMPANY_MSG.ownCompany);
  await assertPairFree(db, v.companyName, v.POCEmail, row.id);
  const activeChanged = v.isDeactive !== row.isDeactive;
  await db.batch([
    db
      .update(c)
      .set({ ...formColumns(v), updatedAt: now })
      .where(visibleCompanies(auth, eq(c.id, row.id))),
    ...(activeChanged && v.isDeactive ? cutOff(db, row.id) : []),
    activityInsert(db, {
      companyId: auth.company.id,
      name: "Modified Company",
      createdByUserId: auth.user.id,
      summary: `${v.companyName} (${row.code})${activeChanged ? (v.isDeactive ? " de-activated" : " activated") : ""}`,
      details: { company_id: row.code, is_deactive: v.isDeactive ? "1" : "0" },
      at: now,
    }),
  ]);
  return { message: COMPANY_MSG.modified };
}

/** DELETE user/deleteCompany: refused while it has child companies or configured devices; otherwise soft-deleted. */
export async function deleteCompany(db: Db, auth: Auth, id: number, now: number): Promise<{ message: string }> {
  assertPlatformCaller(auth, "company", "delete");
  const row = await findVisibleCompany(db, auth, id);
  if (row.id === auth.company.id) throw new ServiceError(422, COMPANY_MSG.ownCompany);
  const [children, devices] = await db.batch([
    db
      .select({ id: c.id })
      .from(c)
      .where(and(eq(c.parentId, row.id), isNull(c.deletedAt)))
      .limit(1),
    db
      .select({ id: schema.devices.id })
      .from(schema.devices)
      .where(and(eq(schema.devices.companyId, row.id), isNull(schema.devices.deletedAt), eq(schema.devices.status, "configured")))
      .limit(1),
  ]);
  if (children.length) throw new ServiceError(422, COMPANY_MSG.hasChildren);
  if (devices.length) throw new ServiceError(422, COMPANY_MSG.hasDevices);
  await db.batch([
    db
      .update(c)
      .set({ deletedAt: now, updatedAt: now })
      .where(visibleCompanies(auth, eq(c.id, row.id))),
    ...cutOff(db, row.id),
    activityInsert(db, {
      companyId: auth.company.id,
      name: "Removed Company",
      createdByUserId: auth.user.id,
      summary: `${row.name} (${row.code})`,
      details: { company_id: row.code },
      at: now,
    }),
  ]);
  return { message: COMPANY_MSG.removed };
}

// ---------------------------------------------------------------- a company's devices

export type CompanyDeviceRow = {
  id: number;
  serialFront: string;
  serialBack: string;
  serialNumber: string;
  boardType: string;
  status: string;
  startDate: string | null;
  fullName: string;
};

/**
 * GET company/getCompanyRelatedDevices (spec part 2 §3 "Company device list"): the devices of one
 * company in the caller's view, by serial number. 404 outside it. The transfer screen calls it with
 * the var_panel module only, for the caller's own child companies.
 */
export async function listCompanyDevices(
  db: Db,
  auth: Auth,
  companyId: number,
  opts: { page?: { offset: number; limit: number } } = {},
): Promise<{ company: CompanyRef; details: CompanyDeviceRow[]; total: number }> {
  assertPlatformCaller(auth);
  const company = await findVisibleCompany(db, auth, companyId);
  // With var_panel alone (the transfer screen) only the caller's direct children are open.
  if (!auth.permissions.company && company.parentId !== auth.company.id) notFound(COMPANY_MSG.notFound);
  const d = schema.devices;
  const where = and(eq(d.companyId, company.id), isNull(d.deletedAt));
  const base = db
    .select({
      id: d.id,
      serialFront: d.serialFront,
      serialBack: d.serialBack,
      serialNumber: d.serialNumber,
      boardType: sql<string>`coalesce((select device_type from device_types where device_types.id = devices.device_type_id), '')`,
      status: d.status,
      startDate: d.startDate,
      fullName: d.fullName,
    })
    .from(d)
    .where(where)
    .orderBy(asc(d.serialNumber), asc(d.id));
  const [rows, totals] = await db.batch([opts.page ? base.limit(opts.page.limit).offset(opts.page.offset) : base, countWhere(db, d, where)]);
  return { company: { name: company.name, code: company.code, type: company.type }, details: rows, total: Number(totals[0]?.n ?? 0) };
}

/**
 * The id a company reference names (the spec's company_id is the 4-character code; the console sends ids):
 * a number is an id; a 4-character string is the live company with that code (case-insensitive), else,
 * all digits, an id; any other string a digit id. 0 when it names none: the caller's own lookup of that id
 * then refuses it exactly as it refuses an id outside the caller's view.
 */
export async function companyIdOf(db: Db, ref: number | string): Promise<number> {
  if (typeof ref === "number") return ref;
  const s = ref.trim();
  if (s.length === 4) {
    const row = await db.query.companies.findFirst({
      where: and(sql`upper(${schema.companies.code}) = ${s.toUpperCase()}`, isNull(schema.companies.deletedAt)),
      columns: { id: true },
    });
    if (row) return row.id;
  }
  return /^\d+$/.test(s) ? Number(s) : 0;
}
