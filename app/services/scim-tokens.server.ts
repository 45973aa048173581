/**
 * Directory (SCIM) bearer tokens (decision 0080). A token reads `<id>.<secret>`: the id finds the row,
 * the secret is checked against its keyed hash (decision 0110's form, `verifySecret`), so the table
 * holds nothing a caller could present. Shown once at creation and rotation; revoking is final.
 */
import { and, desc, eq, isNull, sql } from "drizzle-orm";
import { DIRECTORY_MSG, scimTokenFormSchema, type ScimTokenInput } from "~/schemas/directory";
import { activityInsert } from "~/utils/activity-insert.server";
import { type Auth } from "~/utils/auth-guards.server";
import { hashSecret, newSecret, verifySecret } from "~/utils/secret-hash.server";
import { schema, type Db } from "~/utils/db.server";
import { forbidden, notFound, ServiceError } from "~/utils/errors.server";
import { parseInput } from "~/utils/parse-input.server";
import { inCompany } from "~/utils/tenant.server";

const t = schema.scimTokens;

/** `last_used_at` moves in steps of this much, so a directory's burst of calls is not a D1 write each. */
export const LAST_USED_STEP_MS = 5 * 60_000;

export type ScimTokenRow = { id: number; name: string; createdAt: number; rotatedAt: number | null; lastUsedAt: number | null; revokedAt: number | null };

/** Tokens, groups and links are a super admin's: they let a directory create people and grant what the links say. */
export function assertDirectoryAdmin(auth: Auth) {
  if (!auth.user.isSuperAdmin) forbidden();
}

export async function listScimTokens(db: Db, auth: Auth): Promise<ScimTokenRow[]> {
  assertDirectoryAdmin(auth);
  return db
    .select({ id: t.id, name: t.name, createdAt: t.createdAt, rotatedAt: t.rotatedAt, lastUsedAt: t.lastUsedAt, revokedAt: t.revokedAt })
    .from(t)
    .where(inCompany(t, auth))
    .orderBy(sql`${t.revokedAt} is not null`, desc(t.createdAt));
}

const presented = (id: number, secret: string) => `${id}.${secret}`;

export async function createScimToken(db: Db, auth: Auth, input: ScimTokenInput, now: number): Promise<{ id: number; token: string; message: string }> {
  assertDirectoryAdmin(auth);
  const { name } = parseInput(scimTokenFormSchema, input);
  const secret = newSecret();
  const [inserted] = await db.batch([
    db
      .insert(t)
      .values({ companyId: auth.company.id, name, secretHash: await hashSecret(secret), createdByUserId: auth.user.id, createdAt: now })
      .returning({ id: t.id }),
    activityInsert(db, { companyId: auth.company.id, name: "Directory Token Created", createdByUserId: auth.user.id, summary: name, at: now }),
  ]);
  const id = inserted[0].id;
  return { id, token: presented(id, secret), message: DIRECTORY_MSG.tokenCreated };
}

async function liveToken(db: Db, auth: Auth, id: number) {
  const row =
    (await db
      .select()
      .from(t)
      .where(inCompany(t, auth, eq(t.id, id)))
      .get()) ?? notFound(DIRECTORY_MSG.tokenNotFound);
  if (row.revokedAt != null) throw new ServiceError(409, DIRECTORY_MSG.tokenRevokedAlready);
  return row;
}

/** A new secret for the same token; the old one stops working at once. */
export async function rotateScimToken(db: Db, auth: Auth, id: number, now: number): Promise<{ id: number; token: string; message: string }> {
  assertDirectoryAdmin(auth);
  const row = await liveToken(db, auth, id);
  const secret = newSecret();
  await db.batch([
    db
      .update(t)
      .set({ secretHash: await hashSecret(secret), rotatedAt: now })
      .where(inCompany(t, auth, eq(t.id, id), isNull(t.revokedAt))),
    activityInsert(db, { companyId: auth.company.id, name: "Directory Token Rotated", createdByUserId: auth.user.id, summary: row.name, at: now }),
  ]);
  return { id, token: presented(id, secret), message: DIRECTORY_MSG.tokenRotated };
}

export async function revokeScimToken(db: Db, auth: Auth, id: number, now: number): Promise<{ message: string }> {
  assertDirectoryAdmin(auth);
  const row = await liveToken(db, auth, id);
  await db.batch([
    db
      .update(t)
      .set({ revokedAt: now })
      .where(inCompany(t, auth, eq(t.id, id))),
    activityInsert(db, { companyId: auth.company.id, name: "Directory Token Revoked", createdByUserId: auth.user.id, summary: row.name, at: now }),
  ]);
  return { message: DIRECTORY_MSG.tokenRevoked };
}

/** The directory behind a SCIM call: its company, the token's name for the log, and the company's zone. */
export type Directory = { tokenId: number; tokenName: string; companyId: number; zone: string };

/**
 * The directory a bearer token belongs to, or null: unknown, malformed, revoked, wrong secret, or a
 * company that is deactivated or deleted. `touch` is the coarse last-used write, when one is due.
 */
export async function directoryOfToken(db: Db, bearer: string, now: number): Promise<{ directory: Directory; touch: Promise<unknown> | null } | null> {
  const m = /^([1-9][0-9]{0,15})\.([A-Za-z0-9_-]{43})$/.exec(bearer);
  if (!m) return null;
  const { companies: c, companySettings: cs, timeZones: tz } = schema;
  const row = await db
    .select({
      id: t.id,
      name: t.name,
      companyId: t.companyId,
      secretHash: t.secretHash,
      lastUsedAt: t.lastUsedAt,
      live: sql<number>`${c.isDeactive} = 0 and ${c.deletedAt} is null`,
      zone: sql<string | null>`(select ${tz.name} from ${cs} join ${tz} on ${tz.id} = ${cs.defaultTimeZoneId} where ${cs.companyId} = ${t.companyId})`,
    })
    .from(t)
    .innerJoin(c, eq(c.id, t.companyId))
    .where(and(eq(t.id, Number(m[1])), isNull(t.revokedAt)))
    .get();
  if (!row || !row.live || !(await verifySecret(m[2], row.secretHash))) return null;
  const due = row.lastUsedAt == null || now - row.lastUsedAt >= LAST_USED_STEP_MS;
  const touch = due ? db.update(t).set({ lastUsedAt: now }).where(eq(t.id, row.id)).run() : null;
  return { directory: { tokenId: row.id, tokenName: row.name, companyId: row.companyId, zone: row.zone ?? "UTC" }, touch };
}
