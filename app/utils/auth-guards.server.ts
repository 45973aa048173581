/**
 * Who is calling, and may they? Pages use the throwing guards (`requireAuth`, `requireModule`);
 * services take the resulting `Auth` and re-check with `assertCan`, so the admin API and the
 * pages enforce the same rules.
 */
import { redirect, type AppLoadContext } from "@remix-run/cloudflare";
import { eq, sql } from "drizzle-orm";
import { getDb, nowMs, schema, type Db } from "./db.server";
import { ServiceError } from "./errors.server";
import { can, canReadActivity, MODULES, NO_PERMISSIONS, type Action, type CompanyType, type ModuleKey, type Permissions } from "./permissions";
import { deleteSession, readSessionToken, sessionCookie, sessionIsOver, touchSession, type SessionRow } from "./session.server";
import { sha256Hex } from "./tokens.server";

export type AuthUser = Pick<
  typeof schema.users.$inferSelect,
  "id" | "companyId" | "roleId" | "firstName" | "lastName" | "displayName" | "email" | "isSuperAdmin" | "isInactive" | "isSentinel"
>;
export type AuthCompany = {
  id: number;
  code: string;
  name: string;
  type: CompanyType;
  parentId: number | null;
  /** The company's default time zone (IANA name) from its settings; null when it has none. */
  zone: string | null;
  /** The company's lockdown or evacuation in force when the caller was resolved, for the console's banner. */
  lockdown?: LockdownBanner | null;
};
export type LockdownBanner = { mode: "lockdown" | "evacuation"; planName: string; startedBy: string; startedAt: number; endsAt: number | null };
/** The API key a machine calls with (decision 0075): its rights are `permissions`, its creator is `user`. */
export type ApiKeyActor = { id: number; name: string };
export type Auth = { session: SessionRow; user: AuthUser; company: AuthCompany; permissions: Permissions; apiKey?: ApiKeyActor };

/** The signed-in company's zone, which comes with the session (decision 0042); UTC when the company has none. */
export const companyZone = (auth: Auth): string => auth.company.zone ?? "UTC";

type RoleRow = typeof schema.roles.$inferSelect;

export function permissionsOf(role: RoleRow | null, moduleKeys: string[]): Permissions {
  if (!role) return { ...NO_PERMISSIONS };
  const granted = new Set(moduleKeys);
  return {
    permissionAll: role.permissionAll,
    permissionAdd: role.permissionAdd,
    permissionModify: role.permissionModify,
    permissionDelete: role.permissionDelete,
    permissionView: role.permissionView,
    ...(Object.fromEntries(MODULES.map((m) => [m, granted.has(m)])) as Record<ModuleKey, boolean>),
  };
}

export async function loadPermissions(db: Db, roleId: number | null): Promise<Permissions> {
  if (roleId == null) return { ...NO_PERMISSIONS };
  const [role, modules] = await db.batch([
    db.select().from(schema.roles).where(eq(schema.roles.id, roleId)).limit(1),
    db.select({ key: schema.roleModules.moduleKey }).from(schema.roleModules).where(eq(schema.roleModules.roleId, roleId)),
  ]);
  return permissionsOf(
    role[0] ?? null,
    modules.map((m) => m.key),
  );
}

/**
 * What a caller's row selects beside its credential (a session or an API key): the user, company and role
 * joined by the query, the role's modules and the company's default zone.
 */
export function callerColumns(now: number) {
  const { users: u, companies: c, roles: r, roleModules: m, companySettings: cs, timeZones: tz, companyLockdowns: l } = schema;
  return {
    user: u,
    company: c,
    role: r,
    modules: sql<string>`(select json_group_array(${m.moduleKey}) from ${m} where ${m.roleId} = ${u.roleId})`,
    zone: sql<string | null>`(select ${tz.name} from ${cs} join ${tz} on ${tz.id} = ${cs.defaultTimeZoneId} where ${cs.companyId} = ${u.companyId})`,
    // In force as `isInForce` (app/services/lockdown.server.ts) says: started, not ended, before its automatic end.
    // Read here so that the banner every page shows costs no round trip of its own.
    lockdown: sql<
      string | null
    >`(select json_object('mode', ${l.mode}, 'planName', ${l.planName}, 'startedBy', ${l.startedByName}, 'startedAt', ${l.startedAt}, 'endsAt', ${l.endsAt}) from ${l} where ${l.companyId} = ${u.companyId} and ${l.startedAt} is not null and ${l.endedAt} is null and (${l.endsAt} is null or ${l.endsAt} > ${now}))`,
  };
}

/**
 * Resolves a session token to its caller; null when the session is gone or the user may no longer sign in.
 * One query: the session with its user, company, role, the role's modules and the company's default zone,
 * which every screen that shows a time needs. (Not a D1 batch: batched results come back keyed by column
 * name, so the joined tables' same-named columns would collide.)
 */
export async function authFromToken(db: Db, env: Env, token: string, now = nowMs()): Promise<Auth | null> {
  const id = await sha256Hex(token);
  const { sessions: s, users: u, companies: c, roles: r } = schema;
  const rows = await db
    .select({ session: s, ...callerColumns(now) })
    .from(s)
    .leftJoin(u, eq(u.id, s.userId))
    .leftJoin(c, eq(c.id, u.companyId))
    .leftJoin(r, eq(r.id, u.roleId))
    .where(eq(s.id, id))
    .limit(1);
  const row = rows[0];
  if (!row) return null;
  const { session, user, company, role, modules, zone, lockdown } = row;
  if (sessionIsOver(session, env, now) || !user || !company || user.isInactive || user.deletedAt != null || company.isDeactive || company.deletedAt != null) {
    await deleteSession(db, session.id);
    return null;
  }
  await touchSession(db, session, now);
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
    company: {
      id: company.id,
      code: company.code,
      name: company.name,
      type: company.type,
      parentId: company.parentId,
      zone: zone ?? null,
      lockdown: lockdown ? (JSON.parse(lockdown) as LockdownBanner) : null,
    },
    permissions: permissionsOf(role, JSON.parse(modules ?? "[]") as string[]),
  };
}

/**
 * The shell's loader and the page's loader run for the same request: resolve the session once. Remix hands
 * each loader its own copy of the Request, so the request's load context (one object per request, server.ts)
 * is the key. Only reads share it: an action (a POST) may change what the session resolves to (a password,
 * a role), so it resolves its own, and the loaders that run after it in the same request resolve once more.
 */
const perRequest = new WeakMap<AppLoadContext, Promise<Auth | null>>();

export function getAuth(request: Request, context: AppLoadContext): Promise<Auth | null> {
  const read = request.method === "GET" || request.method === "HEAD";
  let auth = read ? perRequest.get(context) : undefined;
  if (!auth) {
    const env = context.cloudflare.env;
    auth = readSessionToken(request, env).then((token) => (token ? authFromToken(getDb(context), env, token) : null));
    if (read) perRequest.set(context, auth);
  }
  return auth;
}

/**
 * Clears the cookie and sends the browser to /login, remembering where it was going. A browser that still
 * held a session cookie had its session end (idle, lifetime, or access withdrawn): the sign-in page says so.
 */
export async function redirectToLogin(request: Request, context: AppLoadContext): Promise<never> {
  const url = new URL(request.url);
  const params = new URLSearchParams();
  if (await readSessionToken(request, context.cloudflare.env)) params.set("reason", "expired");
  if (url.pathname !== "/" || url.search) params.set("redirectTo", url.pathname + url.search);
  const query = params.toString();
  const to = query ? `/login?${query}` : "/login";
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
export async function requireModule(request: Request, context: AppLoadContext, modules: ModuleKey | readonly ModuleKey[], action: Action = "view"): Promise<Auth> {
  const auth = await requireAuth(request, context);
  if (!can(auth.permissions, modules, action)) throw new Response("Forbidden", { status: 403 });
  return auth;
}

/** The activity log's read right (`canReadActivity`): the module, or the platform administrator's audit trail. */
export function assertActivityReader(auth: Auth): void {
  if (!canReadActivity(auth.permissions, auth.company.type)) throw new ServiceError(403, "You do not have permission to do this");
}

/** Page guard for the activity log's reads; otherwise 403. */
export async function requireActivityReader(request: Request, context: AppLoadContext): Promise<Auth> {
  const auth = await requireAuth(request, context);
  if (!canReadActivity(auth.permissions, auth.company.type)) throw new Response("Forbidden", { status: 403 });
  return auth;
}
