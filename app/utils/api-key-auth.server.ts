/**
 * Who calls with an API key (decision 0075). A key reads `kla_<prefix>_<secret>`: the prefix finds the row,
 * the secret is checked against its keyed hash. The key acts as its creator would, with only the rights it
 * was given and never more than the creator holds now: a creator who loses a right, leaves or is
 * deactivated takes it from the key too.
 */
import { and, eq, isNull, lte, or } from "drizzle-orm";
import { KEYLESS_MODULES } from "~/schemas/api-keys";
import { callerColumns, permissionsOf, type Auth } from "./auth-guards.server";
import { schema, type Db } from "./db.server";
import { MODULES, NO_PERMISSIONS, canAct, type ModuleKey, type Permissions } from "./permissions";
import { verifySecret } from "./secret-hash.server";

export const API_KEY_PREFIX = "kla_";
/** Last use is written at most once per key in this step, not on every call (a D1 write each). */
export const LAST_USE_STEP_MS = 60_000;

const KEY_SHAPE = /^kla_([A-Za-z0-9]{12})_([A-Za-z0-9_-]{43})$/;

export const isApiKey = (token: string) => token.startsWith(API_KEY_PREFIX);
export const apiKeyText = (prefix: string, secret: string) => `${API_KEY_PREFIX}${prefix}_${secret}`;

/** A key's grant as stored: modules (view implied) and the add/modify/delete actions. */
export type KeyGrant = { modules: readonly string[]; canAdd: boolean; canModify: boolean; canDelete: boolean };

/** The rights a key has now: its grant, within what its creator holds. */
export function keyPermissions(grant: KeyGrant, creator: Permissions): Permissions {
  const modules = Object.fromEntries(MODULES.map((m) => [m, grant.modules.includes(m) && creator[m] && !(KEYLESS_MODULES as readonly string[]).includes(m)])) as Record<
    ModuleKey,
    boolean
  >;
  return {
    ...NO_PERMISSIONS,
    ...modules,
    permissionView: true,
    permissionAdd: grant.canAdd && canAct(creator, "add"),
    permissionModify: grant.canModify && canAct(creator, "modify"),
    permissionDelete: grant.canDelete && canAct(creator, "delete"),
  };
}

/**
 * The caller of a key, or null when the key is unknown, wrong, revoked, expired, or its creator or company
 * may no longer act. `touch` is the coarse last-use write, when one is due (run it after answering).
 */
export async function authFromApiKey(db: Db, token: string, now: number): Promise<{ auth: Auth; touch: (() => Promise<unknown>) | null } | null> {
  const match = KEY_SHAPE.exec(token);
  if (!match) return null;
  const [, prefix, secret] = match;
  const { apiKeys: k, users: u, companies: c, roles: r } = schema;
  const rows = await db
    .select({ key: k, ...callerColumns(now) })
    .from(k)
    .innerJoin(u, and(eq(u.id, k.createdByUserId), eq(u.companyId, k.companyId)))
    .innerJoin(c, eq(c.id, k.companyId))
    .leftJoin(r, eq(r.id, u.roleId))
    .where(eq(k.prefix, prefix))
    .limit(1);
  const row = rows[0];
  if (!row || !(await verifySecret(secret, row.key.secretHash))) return null;
  const { key, user, company, role, modules, zone } = row;
  if (key.revokedAt != null || (key.expiresAt != null && key.expiresAt <= now)) return null;
  if (user.isInactive || user.deletedAt != null || company.isDeactive || company.deletedAt != null) return null;
  const creator = permissionsOf(role, JSON.parse(modules ?? "[]") as string[]);
  const grant = { modules: JSON.parse(key.modulesJson) as string[], canAdd: key.canAdd, canModify: key.canModify, canDelete: key.canDelete };
  const auth: Auth = {
    // Not a session: no session call (logout, own password, own sign-in codes) takes a key.
    session: {
      id: `api-key:${key.id}`,
      userId: user.id,
      companyId: company.id,
      kind: "api",
      createdAt: key.createdAt,
      lastSeenAt: now,
      expiresAt: key.expiresAt ?? Number.MAX_SAFE_INTEGER,
      ip: "",
      userAgent: "",
      installationId: null,
      lang: null,
      supportGrantId: null,
      mfaEnrolmentOnly: false,
    },
    user: {
      id: user.id,
      companyId: user.companyId,
      roleId: user.roleId,
      firstName: user.firstName,
      lastName: user.lastName,
      displayName: user.displayName,
      email: user.email,
      // A key is nobody's super admin: it holds the rights it was given.
      isSuperAdmin: false,
      isInactive: user.isInactive,
      isSentinel: false,
    },
    company: { id: company.id, code: company.code, name: company.name, type: company.type, parentId: company.parentId, zone: zone ?? null },
    permissions: keyPermissions(grant, creator),
    apiKey: { id: key.id, name: key.name },
  };
  const due = key.lastUsedAt == null || now - key.lastUsedAt >= LAST_USE_STEP_MS;
  const touch = due
    ? () =>
        db
          .update(k)
          .set({ lastUsedAt: now })
          .where(and(eq(k.id, key.id), or(isNull(k.lastUsedAt), lte(k.lastUsedAt, now - LAST_USE_STEP_MS))))
    : null;
  return { auth, touch };
}
