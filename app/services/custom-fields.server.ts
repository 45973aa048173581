/**
 * Custom fields for users (issue 32, docs/decisions/0095-custom-fields.md). A company's definitions are
 * kept with its settings (module company_settings: add, modify, delete); whoever manages users reads them,
 * since the user form, the list, the CSV and the admin API show them. Values are text normalised by type
 * (`normaliseValue`), one row per user and field; the users service writes them in the user's own batch.
 */
import { and, asc, count, desc, eq, inArray, sql, type SQL } from "drizzle-orm";
import { CUSTOM_FIELD_LIMITS, CUSTOM_FIELD_MSG as MSG, resolveValues, valueMessage, type CustomFieldInput, type CustomFieldType, type FieldDef } from "~/schemas/custom-fields";
import { activityInsert } from "~/utils/activity-insert.server";
import { assertCan, type Auth } from "~/utils/auth-guards.server";
import { chunks, schema, type Db } from "~/utils/db.server";
import { notFound, ServiceError } from "~/utils/errors.server";
import { liveInCompany } from "~/utils/tenant.server";

const f = schema.customFields;
const v = schema.userFieldValues;
const MODULE = "company_settings";
type BatchItem = Parameters<Db["batch"]>[0][number];

export type CustomField = FieldDef & { showInList: boolean; position: number; updatedAt: number };
export type CustomFieldRow = CustomField & { values: number };

const valuesIn = sql<number>`(select count(*) from user_field_values where user_field_values.field_id = custom_fields.id)`;
export const CUSTOM_FIELD_SORTS = { position: f.position, label: f.label, key: f.key, type: f.type, values: valuesIn, updatedAt: f.updatedAt } as const;

const columns = {
  id: f.id,
  key: f.key,
  label: f.label,
  type: f.type,
  choices: f.choices,
  required: f.required,
  showInList: f.showInList,
  position: f.position,
  updatedAt: f.updatedAt,
};
type Stored = { id: number; key: string; label: string; type: CustomFieldType; choices: string; required: boolean; showInList: boolean; position: number; updatedAt: number };
const parsed = <T extends Stored>(r: T) => ({ ...r, choices: JSON.parse(r.choices) as string[] });

/** The live definitions of a company in the form's order: a query for the caller's batch. */
export function fieldsQuery(db: Db, companyId: number) {
  return db.select(columns).from(f).where(liveInCompany(f, companyId)).orderBy(asc(f.position), asc(f.id));
}
export const fieldsOf = (rows: Stored[]): CustomField[] => rows.map(parsed);

/** The definitions page (/customFields) and GET /customFields/getFields. */
export async function listCustomFields(
  db: Db,
  auth: Auth,
  opts: { sort?: { key: string; desc: boolean }; page?: { offset: number; limit: number } } = {},
): Promise<{ rows: CustomFieldRow[]; total: number }> {
  assertCan(auth, ["users", MODULE]);
  const key = opts.sort && opts.sort.key in CUSTOM_FIELD_SORTS ? (opts.sort.key as keyof typeof CUSTOM_FIELD_SORTS) : "position";
  const dir = opts.sort?.desc ? desc : asc;
  const base = db
    .select({ ...columns, values: valuesIn })
    .from(f)
    .where(liveInCompany(f, auth))
    .orderBy(dir(CUSTOM_FIELD_SORTS[key]), asc(f.id));
  const [rows, totals] = await db.batch([opts.page ? base.limit(opts.page.limit).offset(opts.page.offset) : base, db.select({ n: count() }).from(f).where(liveInCompany(f, auth))]);
  return { rows: rows.map((r) => ({ ...parsed(r), values: Number(r.values) })), total: totals[0]?.n ?? 0 };
}

/** The definitions the user form, list, CSV and API use (whoever manages users reads them). */
export async function customFields(db: Db, auth: Auth): Promise<CustomField[]> {
  assertCan(auth, ["users", MODULE]);
  return fieldsOf(await fieldsQuery(db, auth.company.id));
}

async function findField(db: Db, auth: Auth, id: number) {
  if (!Number.isSafeInteger(id) || id <= 0) notFound(MSG.notFound);
  const [row] = await db
    .select(columns)
    .from(f)
    .where(liveInCompany(f, auth, eq(f.id, id)))
    .limit(1);
  return row ? parsed(row) : notFound(MSG.notFound);
}

export async function getCustomField(db: Db, auth: Auth, id: number): Promise<CustomField> {
  assertCan(auth, ["users", MODULE]);
  return findField(db, auth, id);
}

/** One round trip: is the key free, and how many live fields the company has. */
async function assertRoom(db: Db, auth: Auth, key: string, exceptId?: number) {
  const [taken, total] = await db.batch([
    db
      .select({ id: f.id })
      .from(f)
      .where(liveInCompany(f, auth, eq(f.key, key)))
      .limit(2),
    db.select({ n: count() }).from(f).where(liveInCompany(f, auth)),
  ]);
  if (taken.some((r) => r.id !== exceptId)) throw new ServiceError(422, MSG.keyTaken, { fieldErrors: { key: [MSG.keyTaken] } });
  if (exceptId === undefined && (total[0]?.n ?? 0) >= CUSTOM_FIELD_LIMITS.fields) throw new ServiceError(422, MSG.tooMany);
}

const audit = (auth: Auth, name: string, summary: string, now: number) => ({ companyId: auth.company.id, name, createdByUserId: auth.user.id, summary, at: now });

const stored = (input: CustomFieldInput) => ({
  key: input.key,
  label: input.label,
  type: input.type,
  choices: JSON.stringify(input.choices),
  required: input.required,
  showInList: input.showInList,
  position: input.position,
});

export async function addCustomField(db: Db, auth: Auth, input: CustomFieldInput, now: number): Promise<{ message: string; id: number }> {
  assertCan(auth, MODULE, "add");
  await assertRoom(db, auth, input.key);
  const [inserted] = await db.batch([
    db
      .insert(f)
      .values({ ...stored(input), companyId: auth.company.id, createdAt: now, updatedAt: now })
      .returning({ id: f.id }),
    activityInsert(db, audit(auth, "Custom Field Created", `${input.label} (${input.key})`, now)),
  ]);
  return { message: MSG.created, id: inserted[0].id };
}

/** A field's type is fixed once users have values (they were checked for the old one); its choices and key may change. */
export async function modifyCustomField(db: Db, auth: Auth, id: number, input: CustomFieldInput, now: number): Promise<{ message: string }> {
  assertCan(auth, MODULE, "modify");
  const field = await findField(db, auth, id);
  await assertRoom(db, auth, input.key, field.id);
  if (field.type !== input.type) {
    const [used] = await db
      .select({ n: count() })
      .from(v)
      .where(and(eq(v.companyId, auth.company.id), eq(v.fieldId, field.id)));
    if ((used?.n ?? 0) > 0) throw new ServiceError(422, MSG.typeLocked, { fieldErrors: { type: [MSG.typeLocked] } });
  }
  await db.batch([
    db
      .update(f)
      .set({ ...stored(input), updatedAt: now })
      .where(liveInCompany(f, auth, eq(f.id, field.id))),
    activityInsert(db, audit(auth, "Custom Field Modified", `${input.label} (${input.key})`, now)),
  ]);
  return { message: MSG.modified };
}

/** The definition is kept as deleted (its key freed); the users' values of it go. */
export async function deleteCustomField(db: Db, auth: Auth, id: number, now: number): Promise<{ message: string }> {
  assertCan(auth, MODULE, "delete");
  const field = await findField(db, auth, id);
  await db.batch([
    db
      .update(f)
      .set({ deletedAt: now, updatedAt: now })
      .where(liveInCompany(f, auth, eq(f.id, field.id))),
    db.delete(v).where(and(eq(v.companyId, auth.company.id), eq(v.fieldId, field.id))),
    activityInsert(db, audit(auth, "Custom Field Deleted", `${field.label} (${field.key})`, now)),
  ]);
  return { message: MSG.deleted };
}

// ---------------------------------------------------------------- values

/** The values of some users of the company (in parts of D1's parameter limit), by user id then key. */
export async function valuesOfUsers(db: Db, companyId: number, userIds: number[], fields: CustomField[]): Promise<Map<number, Record<string, string>>> {
  const out = new Map<number, Record<string, string>>();
  if (!userIds.length || !fields.length) return out;
  const parts = chunks([...new Set(userIds)]).map((part) =>
    db
      .select({ userId: v.userId, fieldId: v.fieldId, value: v.value })
      .from(v)
      .where(and(eq(v.companyId, companyId), inArray(v.userId, part))),
  );
  const results = (await db.batch(parts as unknown as [BatchItem, ...BatchItem[]])) as unknown as { userId: number; fieldId: number; value: string }[][];
  return valuesByUser(results.flat(), fields);
}

/** Value rows → user id → { key: value } (rows of deleted fields are skipped). */
export function valuesByUser(rows: { userId: number; fieldId: number; value: string }[], fields: CustomField[]): Map<number, Record<string, string>> {
  const keyOf = new Map(fields.map((d) => [d.id, d.key]));
  const out = new Map<number, Record<string, string>>();
  for (const r of rows) {
    const key = keyOf.get(r.fieldId);
    if (!key) continue;
    const m = out.get(r.userId) ?? {};
    m[key] = r.value;
    out.set(r.userId, m);
  }
  return out;
}

/** One user's values: a query for the caller's batch. */
export function userValuesQuery(db: Db, companyId: number, userId: number) {
  return db
    .select({ userId: v.userId, fieldId: v.fieldId, value: v.value })
    .from(v)
    .where(and(eq(v.companyId, companyId), eq(v.userId, userId)));
}

/**
 * Checks `given` against the definitions and returns the values to store, or throws 400 with one field error
 * per bad value (`customFields.<key>`), the first as the message ("department: This field is required").
 */
export function checkedValues(fields: CustomField[], current: Map<number, string>, given: Record<string, unknown> | undefined, replace: boolean): Map<number, string> {
  const { values, errors } = resolveValues(fields, current, given, replace);
  const keys = Object.keys(errors);
  if (keys.length) {
    const fieldErrors = Object.fromEntries(keys.map((k) => [`customFields.${k}`, [errors[k]]]));
    throw new ServiceError(400, valueMessage(keys[0], errors[keys[0]]), { fieldErrors });
  }
  return values;
}

/** Statements replacing a user's values (`userId` may be the new user's id as a subquery). */
export function valueStatements(db: Db, companyId: number, userId: number | SQL, values: Map<number, string>, isNew = false): BatchItem[] {
  const out: BatchItem[] = [];
  if (!isNew) out.push(db.delete(v).where(and(eq(v.companyId, companyId), eq(v.userId, userId as number))));
  for (const [fieldId, value] of values) out.push(db.insert(v).values({ companyId, userId: userId as number, fieldId, value }));
  return out;
}
