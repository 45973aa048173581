/**
 * FAQs (docs/ARCHITECTURE.md §7.4): one entry per language, ordered within its language. Company users
 * with the support module read the entries of their language; only the platform (root) company edits
 * them, with its support or company module and the matching action right.
 */
import { and, asc, eq, gt, isNull, lt, or, sql, desc } from "drizzle-orm";
import { faqMoveSchema, faqSchema, SUPPORT_MSG, type FaqInput } from "~/schemas/support";
import { activityInsert } from "~/utils/activity-insert.server";
import { assertCan, type Auth } from "~/utils/auth-guards.server";
import { schema, type Db } from "~/utils/db.server";
import { forbidden, notFound } from "~/utils/errors.server";
import { parseInput } from "~/utils/parse-input.server";
import { can, type Action } from "~/utils/permissions";

const f = schema.faqs;
const MODULES = ["support", "company"] as const;
export type FaqLanguage = FaqInput["language"];
export type FaqRow = { id: number; language: FaqLanguage; question: string; answer: string; sortOrder: number };

export const canEditFaqs = (auth: Auth, action: Action) => auth.company.type === "root" && can(auth.permissions, MODULES, action);

export function assertEditor(auth: Auth, action: Action) {
  assertCan(auth, MODULES, action);
  if (!canEditFaqs(auth, action)) forbidden();
}

const columns = { id: f.id, language: f.language, question: f.question, answer: f.answer, sortOrder: f.sortOrder };

/** The entries a company user reads: its language, shared ones and any written for its own company. */
export async function listFaqs(db: Db, auth: Auth, language: FaqLanguage): Promise<FaqRow[]> {
  assertCan(auth, MODULES);
  return db
    .select(columns)
    .from(f)
    .where(and(eq(f.language, language), or(isNull(f.companyId), eq(f.companyId, auth.company.id))))
    .orderBy(asc(f.sortOrder), asc(f.id));
}

/** Every shared entry of one language, for the editor. */
export async function listFaqsForEditing(db: Db, auth: Auth, language: FaqLanguage): Promise<FaqRow[]> {
  assertEditor(auth, "view");
  return db
    .select(columns)
    .from(f)
    .where(and(eq(f.language, language), isNull(f.companyId)))
    .orderBy(asc(f.sortOrder), asc(f.id));
}

async function findFaq(db: Db, id: number) {
  if (!Number.isInteger(id) || id <= 0) notFound(SUPPORT_MSG.faqNotFound);
  const row = await db.query.faqs.findFirst({ where: and(eq(f.id, id), isNull(f.companyId)) });
  return row ?? notFound(SUPPORT_MSG.faqNotFound);
}

export async function getFaq(db: Db, auth: Auth, id: number): Promise<FaqRow> {
  assertEditor(auth, "view");
  const { companyId: _, ...row } = await findFaq(db, id);
  return row;
}

const audit = (db: Db, auth: Auth, name: string, question: string, now: number) =>
  activityInsert(db, { companyId: auth.company.id, name, createdByUserId: auth.user.id, summary: question, at: now });

export async function addFaq(db: Db, auth: Auth, input: unknown, now: number): Promise<{ message: string }> {
  assertEditor(auth, "add");
  const v = parseInput(faqSchema, input);
  await db.batch([
    db.insert(f).values({
      companyId: null,
      language: v.language,
      question: v.question,
      answer: v.answer,
      sortOrder: sql`(select coalesce(max(sort_order), 0) + 1 from faqs where language = ${v.language} and company_id is null)`,
    }),
    audit(db, auth, "FAQ Created", v.question, now),
  ]);
  return { message: SUPPORT_MSG.faqCreated };
}

export async function updateFaq(db: Db, auth: Auth, id: number, input: unknown, now: number): Promise<{ message: string }> {
  assertEditor(auth, "modify");
  const row = await findFaq(db, id);
  const v = parseInput(faqSchema, input);
  // A changed language puts the entry last in its new list.
  const order = v.language === row.language ? row.sortOrder : sql`(select coalesce(max(sort_order), 0) + 1 from faqs where language = ${v.language} and company_id is null)`;
  await db.batch([
    db.update(f).set({ language: v.language, question: v.question, answer: v.answer, sortOrder: order }).where(eq(f.id, row.id)),
    audit(db, auth, "FAQ Modified", v.question, now),
  ]);
  return { message: SUPPORT_MSG.faqModified };
}

/** Swaps an entry with its neighbour above or below in its language. */
export async function moveFaq(db: Db, auth: Auth, input: unknown, now: number): Promise<{ message: string }> {
  assertEditor(auth, "modify");
  const v = parseInput(faqMoveSchema, input);
  const row = await findFaq(db, v.id);
  const up = v.direction === "up";
  const [other] = await db
    .select(columns)
    .from(f)
    .where(
      and(
        eq(f.language, row.language),
        isNull(f.companyId),
        up
          ? or(lt(f.sortOrder, row.sortOrder), and(eq(f.sortOrder, row.sortOrder), lt(f.id, row.id)))
          : or(gt(f.sortOrder, row.sortOrder), and(eq(f.sortOrder, row.sortOrder), gt(f.id, row.id))),
      ),
    )
    .orderBy(up ? desc(f.sortOrder) : asc(f.sortOrder), up ? desc(f.id) : asc(f.id))
    .limit(1);
  if (!other) return { message: SUPPORT_MSG.faqMoved };
  // Equal orders (entries added by hand) still swap: the moved entry takes a distinct place.
  const [mine, theirs] = other.sortOrder === row.sortOrder ? (up ? [row.sortOrder - 1, row.sortOrder] : [row.sortOrder + 1, row.sortOrder]) : [other.sortOrder, row.sortOrder];
  await db.batch([
    db.update(f).set({ sortOrder: mine }).where(eq(f.id, row.id)),
    db.update(f).set({ sortOrder: theirs }).where(eq(f.id, other.id)),
    audit(db, auth, "FAQ Modified", row.question, now),
  ]);
  return { message: SUPPORT_MSG.faqMoved };
}

export async function deleteFaq(db: Db, auth: Auth, id: number, now: number): Promise<{ message: string }> {
  assertEditor(auth, "delete");
  const row = await findFaq(db, id);
  await db.batch([db.delete(f).where(eq(f.id, row.id)), audit(db, auth, "FAQ Deleted", row.question, now)]);
  return { message: SUPPORT_MSG.faqDeleted };
}
