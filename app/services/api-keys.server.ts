/**
 * API keys for machines (docs/decisions/0075-api-keys-and-rate-limits.md): a company's admins (the company
 * settings module) list, create and revoke them. Nobody creates a key with a module or action they do not
 * hold, and a key never manages keys. The key is shown once, at creation; only its keyed hash is stored.
 */
import { asc, desc, eq, isNull } from "drizzle-orm";
import { API_KEY_MSG, apiKeyFormSchema, type ApiKeyInput } from "~/schemas/api-keys";
import { activityInsert } from "~/utils/activity-insert.server";
import { apiKeyText } from "~/utils/api-key-auth.server";
import { assertCan, type Auth } from "~/utils/auth-guards.server";
import { countWhere, schema, type Db } from "~/utils/db.server";
import { forbidden, notFound } from "~/utils/errors.server";
import { parseInput } from "~/utils/parse-input.server";
import type { Action } from "~/utils/permissions";
import { hashSecret, newSecret } from "~/utils/secret-hash.server";
import { inCompany } from "~/utils/tenant.server";
import { assertWithinCaller } from "./roles.server";

const k = schema.apiKeys;
const u = schema.users;
const MODULE = "company_settings";
const DAY_MS = 86_400_000;

export type ApiKeyRow = {
  id: number;
  name: string;
  prefix: string;
  modules: string[];
  canAdd: boolean;
  canModify: boolean;
  canDelete: boolean;
  createdBy: string;
  createdAt: number;
  expiresAt: number | null;
  revokedAt: number | null;
  lastUsedAt: number | null;
};

function assertMay(auth: Auth, action: Action) {
  assertCan(auth, MODULE, action);
  if (auth.apiKey) forbidden(API_KEY_MSG.notByKey);
}

export const API_KEY_SORTS = { name: k.name, createdAt: k.createdAt, expiresAt: k.expiresAt, lastUsedAt: k.lastUsedAt } as const;

export async function listApiKeys(
  db: Db,
  auth: Auth,
  opts: { sort?: { key: string; desc: boolean }; page?: { offset: number; limit: number } } = {},
): Promise<{ rows: ApiKeyRow[]; total: number }> {
  assertMay(auth, "view");
  const key = opts.sort && opts.sort.key in API_KEY_SORTS ? (opts.sort.key as keyof typeof API_KEY_SORTS) : "createdAt";
  const dir = opts.sort ? (opts.sort.desc ? desc : asc) : desc;
  const base = db
    .select({
      id: k.id,
      name: k.name,
      prefix: k.prefix,
      modulesJson: k.modulesJson,
      canAdd: k.canAdd,
      canModify: k.canModify,
      canDelete: k.canDelete,
      createdBy: u.displayName,
      createdAt: k.createdAt,
      expiresAt: k.expiresAt,
      revokedAt: k.revokedAt,
      lastUsedAt: k.lastUsedAt,
    })
    .from(k)
    .leftJoin(u, eq(u.id, k.createdByUserId))
    .where(inCompany(k, auth))
    .orderBy(dir(API_KEY_SORTS[key]), desc(k.id));
  const [rows, totals] = await db.batch([opts.page ? base.limit(opts.page.limit).offset(opts.page.offset) : base, countWhere(db, k, inCompany(k, auth))]);
  return {
    rows: rows.map(({ modulesJson, createdBy, ...r }) => ({ ...r, modules: JSON.parse(modulesJson) as string[], createdBy: createdBy ?? "" })),
    total: totals[0]?.n ?? 0,
  };
}

/** 12 random letters and digits: the key's public part. */
function newPrefix(): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  return Array.from(crypto.getRandomValues(new Uint8Array(12)), (b) => alphabet[b % alphabet.length]).join("");
}

/** Creates a key; the answer holds the only copy of its text. */
export async function createApiKey(db: Db, auth: Auth, input: unknown, now: number): Promise<{ message: string; id: number; key: string; expiresAt: number | null }> {
  assertMay(auth, "add");
  const v: ApiKeyInput = parseInput(apiKeyFormSchema, input);
  assertWithinCaller(auth, { modules: v.modules, all: false, add: v.canAdd, modify: v.canModify, view: true, delete: v.canDelete });
  const prefix = newPrefix();
  const secret = newSecret();
  const expiresAt = v.lifetime === "never" ? null : now + Number(v.lifetime) * DAY_MS;
  const [inserted] = await db.batch([
    db
      .insert(k)
      .values({
        companyId: auth.company.id,
        name: v.name,
        createdByUserId: auth.user.id,
        prefix,
        secretHash: await hashSecret(secret),
        modulesJson: JSON.stringify(v.modules),
        canAdd: v.canAdd,
        canModify: v.canModify,
        canDelete: v.canDelete,
        expiresAt,
        createdAt: now,
      })
      .returning({ id: k.id }),
    activityInsert(db, {
      companyId: auth.company.id,
      name: "API Key Created",
      createdByUserId: auth.user.id,
      summary: v.name,
      details: { prefix, modules: v.modules, add: v.canAdd, modify: v.canModify, delete: v.canDelete, expiresAt },
      at: now,
    }),
  ]);
  return { message: API_KEY_MSG.created, id: inserted[0].id, key: apiKeyText(prefix, secret), expiresAt };
}

/** Revokes a key of the caller's company; a key already revoked is not found. */
export async function revokeApiKey(db: Db, auth: Auth, id: number, now: number): Promise<{ message: string }> {
  assertMay(auth, "delete");
  if (!Number.isInteger(id) || id <= 0) notFound(API_KEY_MSG.notFound);
  const live = inCompany(k, auth, eq(k.id, id), isNull(k.revokedAt));
  const row = (await db.select({ name: k.name, prefix: k.prefix }).from(k).where(live).limit(1))[0] ?? notFound(API_KEY_MSG.notFound);
  await db.batch([
    db.update(k).set({ revokedAt: now }).where(live),
    activityInsert(db, { companyId: auth.company.id, name: "API Key Revoked", createdByUserId: auth.user.id, summary: row.name, details: { prefix: row.prefix }, at: now }),
  ]);
  return { message: API_KEY_MSG.revoked };
}
