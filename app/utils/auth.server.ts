/**
 * Who is calling, and may they? Pages use the throwing guards (`requireAuth`, `requireModule`);
 * services take the resulting `Auth` and re-check with `assertCan`, so the admin API and the
 * pages enforce the same rules.
 */
import { redirect, type AppLoadContext } from "@remix-run/cloudflare";
import { eq } from "drizzle-orm";
import { getDb, nowMs, schema, type Db } from "./db.server";
import { ServiceError } from "./errors.server";
import { can, MODULES, NO_PERMISSIONS, type Action, type CompanyType, type ModuleKey, type Permissions } from "./permissions";
import { deleteSession, findLiveSession, readSessionToken, sessionCookie, touchSession, type SessionRow } from "./session.server";

export type AuthUser = Pick<
  typeof schema.users.$inferSelect,
  "id" | "companyId" | "roleId" | "firstName" | "lastName" | "displayName" | "email" | "isSuperAdmin" | "isInactive" | "isSentinel"
>;
export type AuthCompany = { id: number; code: string; name: string; type: CompanyType; parentId: number | null };
export type Auth = { session: SessionRow; user: AuthUser; company: AuthCompany; permissions: Permissions };

export async function loadPermissions(db: Db, roleId: number | null): Promise<Permissions> {
  if (roleId == null) return { ...NO_PERMISSIONS };
  const [role, modules] = await db.batch([
    db.select().from(schema.roles).where(eq(schema.roles.id, roleId)).limit(1),
    db.select({ key: schema.roleModules.moduleKey }).from(schema.roleModules).where(eq(schema.roleModules.roleId, roleId)),
  ]);
  const r = role[0];
  if (!r) return { ...NO_PERMISSIONS };
  const granted = new Set(modules.map((m) => m.key));
  return {
    permission_all: r.permissionAll,
    permission_add: r.permissionAdd,
    permission_modifly: r.permissionModify,
    permission_delete: r.permissionDelete,
    permission_view: r.permissionView,
    ...(Object.fromEntries(MODULES.map((m) => [m, granted.has(m)])) as Record<ModuleKey, boolean>),
  };
}

/** Resolves a session token to its caller; null when the session is gone or the user may no longer sign in. */
export async function authFromToken(db: Db, env: Env, token: string, now = nowMs()): Promise<Auth | null> {
  const session = await findLiveSession(db, env, token, now);
  if (!session) return null;
  const rows = await db
    .select({ user: schema.users, company: schema.companies })
    .from(schema.users)
    .innerJoin(schema.companies, eq(schema.companies.id, schema.users.companyId))
    .where(eq(schema.users.id, session.userId))
    .limit(1);
  const row = rows[0];
  if (!row || row.user.isInactive || row.user.deletedAt != null || row.company.isDeactive || row.company.deletedAt != null) {
    await deleteSession(db, session.id);
    return null;
  }
  await touchSession(db, session, now);
  const { user, company } = row;
  return {
    session,
    user: {
      id: user.id,
      companyId: user.companyId,
      roleId: user.roleId,
      firstName: user.firstName,
      lastName: user.lastName,
      displayName: user.displayName,
      email: user.email,
      isSuperAdmin: user.isSuperAdmin,
      isInactive: user.isInactive,
      isSentinel: user.isSentinel,
    },
    company: { id: company.id, code: company.code, name: company.name, type: company.type, parentId: company.parentId },
    permissions: await loadPermissions(db, user.roleId),
  };
}

/** The shell's loader and the page's loader run for the same request: resolve the session once. */
const perRequest = new WeakMap<Request, Promise<Auth | null>>();

export function getAuth(request: Request, context: AppLoadContext): Promise<Auth | null> {
  let auth = perRequest.get(request);
  if (!auth) {
    const env = context.cloudflare.env;
    auth = readSessionToken(request, env).then((token) => (token ? authFromToken(getDb(context), env, token) : null));
    perRequest.set(request, auth);
  }
  return auth;
}

/** Clears the cookie and sends the browser to /login, remembering where it was going. */
export async function redirectToLogin(request: Request, context: AppLoadContext): Promise<never> {
  const url = new URL(request.url);
  const to = url.pathname === "/" ? "/login" : `/login?redirectTo=${encodeURIComponent(url.pathname + url.search)}`;
  throw redirect(to, {
    headers: { "Set-Cookie": await sessionCookie(context.cloudflare.env).serialize("", { maxAge: 0 }) },
  });
}

export async function requireAuth(request: Request, context: AppLoadContext): Promise<Auth> {
  return (await getAuth(request, context)) ?? redirectToLogin(request, context);
}

export async function requireAnonymous(request: Request, context: AppLoadContext): Promise<void> {
  if (await getAuth(request, context)) throw redirect("/");
}

export function assertCan(auth: Auth, modules: ModuleKey | readonly ModuleKey[], action: Action = "view"): void {
  if (!can(auth.permissions, modules, action)) {
    throw new ServiceError(403, "You do not have permission to do this");
  }
}

/** Page guard: signed in and holding one of `modules` (and the action right); otherwise 403. */
export async function requireModule(
  request: Request,
  context: AppLoadContext,
  modules: ModuleKey | readonly ModuleKey[],
  action: Action = "view",
): Promise<Auth> {
  const auth = await requireAuth(request, context);
  if (!can(auth.permissions, modules, action)) throw new Response("Forbidden", { status: 403 });
  return auth;
}
