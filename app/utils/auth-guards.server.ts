/**
 * Who is calling, and may they? Pages use the throwing guards (`requireAuth`, `requireModule`);
 * services take the resulting `Auth` and re-check with `assertCan`, so the admin API and the
 * pages enforce the same rules.
 */
import { redirect, type AppLoadContext } from "@remix-run/cloudflare";
import { eq, sql, type SQLWrapper } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { getDb, nowMs, schema, type Db } from "./db.server";
import { ServiceError } from "./errors.server";
import { can, canReadActivity, MODULES, NO_PERMISSIONS, type Action, type CompanyType, type ModuleKey, type Permissions } from "./permissions";
import { deleteSession, readSessionToken, readSupportToken, sessionCookie, sessionIsOver, supportCookie, touchSession, type SessionRow } from "./session.server";
import { noteSupportActor } from "./request-scope.server";
import { sha256Hex } from "./tokens.server";

/** The pages an enrolment-only session opens (decision 0123). */
const ENROLMENT_PATHS = ["/mfaEnrolment", "/passkeys", "/authenticatorApp", "/logout", "/resources/language", "/resources/session"];
const ENROLMENT_FIRST = "Your company requires an authenticator app or a passkey: set one up before using the console";

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
export type Auth = {
  session: SessionRow;
  user: AuthUser;
  company: AuthCompany;
  permissions: Permissions;
  apiKey?: ApiKeyActor;
  support?: SupportSession;
  /** The company's visitor rules name the caller's role as a hosting one (decision 0096), for the console's navigation. */
  hostsByRole?: boolean;
};
/**
 * A support session (decision 0093): `user` is the grantee's staff member, `company` the customer that
 * granted access, `permissions` those of the customer's admin who granted it (never more).
 */
export type SupportSession = { grantId: number; granteeCompany: { id: number; name: string; code: string }; grantedBy: string; reason: string; expiresAt: number };

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
  const { users: u, companies: c, roles: r, roleModules: m, companySettings: cs, timeZones: tz, companyLockdowns: l, visitorPassRules: vr } = schema;
  return {
    user: u,
    company: c,
    role: r,
    modules: sql<string>`(select json_group_array(${m.moduleKey}) from ${m} where ${m.roleId} = ${u.roleId})`,
    zone: sql<string | null>`(select ${tz.name} from ${cs} join ${tz} on ${tz.id} = ${cs.defaultTimeZoneId} where ${cs.companyId} = ${u.companyId})`,
    hostsByRole: sql<number>`exists (select 1 from ${vr}, json_each(${vr.hostRoleIds}) where ${vr.companyId} = ${u.companyId} and json_each.value = ${u.roleId})`,
    // In force as `isInForce` (app/services/lockdown.server.ts) says: started, not ended, before its automatic end.
    // Read here so that the banner every page shows costs no round trip of its own.
    lockdown: sql<
      string | null
    >`(select json_object('mode', ${l.mode}, 'planName', ${l.planName}, 'startedBy', ${l.startedByName}, 'startedAt', ${l.startedAt}, 'endsAt', ${l.endsAt}) from ${l} where ${l.companyId} = ${u.companyId} and ${l.startedAt} is not null and ${l.endedAt} is null and (${l.endsAt} is null or ${l.endsAt} > ${now}))`,
  };
}

/** The caller's company as `Auth` carries it, from a row of `callerColumns`. */
function callerCompany(company: typeof schema.companies.$inferSelect, zone: string | null, lockdown: string | null): AuthCompany {
  return {
    id: company.id,
    code: company.code,
    name: company.name,
    type: company.type,
    parentId: company.parentId,
    zone: zone ?? null,
    lockdown: lockdown ? (JSON.parse(lockdown) as LockdownBanner) : null,
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
  const { session, user, company, role, modules, zone, lockdown, hostsByRole } = row;
  if (sessionIsOver(session, env, now) || !user || !company || user.isInactive || user.deletedAt != null || company.isDeactive || company.deletedAt != null) {
    await deleteSession(db, session.id);
    return null;
  }
  if (session.supportGrantId != null) return supportAuth(db, session, user, now);
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
    company: callerCompany(company, zone, lockdown),
    permissions: permissionsOf(role, JSON.parse(modules ?? "[]") as string[]),
    hostsByRole: Boolean(hostsByRole),
  };
}

/** The support grant names no staff, or names this user (decision 0093). */
export const grantNamesStaff = (grantId: SQLWrapper | number, userId: number) => {
  const gs = schema.supportGrantStaff;
  return sql<boolean>`(not exists (select 1 from ${gs} where ${gs.grantId} = ${grantId}) or exists (select 1 from ${gs} where ${gs.grantId} = ${grantId} and ${gs.userId} = ${userId}))`;
};

/**
 * A support session's caller: the staff member (`staff`, already checked active) inside the company that
 * granted access, with the granting admin's permissions, while the grant is in force, the grantor still
 * active and the staff member still in the grantee company (and named by the grant, if it names any). Otherwise the session ends (null).
 */
async function supportAuth(db: Db, session: SessionRow, staff: typeof schema.users.$inferSelect, now: number): Promise<Auth | null> {
  const { supportGrants: g, users: u, companies: c, roles: r } = schema;
  const grantee = alias(c, "grantee");
  const [row] = await db
    .select({ grant: g, grantee: { id: grantee.id, name: grantee.name, code: grantee.code }, named: grantNamesStaff(g.id, staff.id), ...callerColumns(now) })
    .from(g)
    .innerJoin(grantee, eq(grantee.id, g.granteeCompanyId))
    .leftJoin(u, eq(u.id, g.grantedByUserId))
    .leftJoin(c, eq(c.id, u.companyId))
    .leftJoin(r, eq(r.id, u.roleId))
    .where(eq(g.id, session.supportGrantId!))
    .limit(1);
  const live =
    row &&
    row.grant.revokedAt == null &&
    row.grant.startsAt <= now &&
    row.grant.expiresAt > now &&
    row.grant.granteeCompanyId === staff.companyId &&
    Boolean(row.named) &&
    row.user &&
    row.company &&
    row.company.id === row.grant.companyId &&
    !row.user.isInactive &&
    row.user.deletedAt == null &&
    !row.company.isDeactive &&
    row.company.deletedAt == null;
  if (!live) {
    await deleteSession(db, session.id);
    return null;
  }
  await touchSession(db, session, now);
  const { grant, company, user: grantor, role, modules, zone, lockdown } = row;
  const staffName = staff.displayName || `${staff.firstName} ${staff.lastName}`.trim() || staff.email;
  noteSupportActor({ grantId: grant.id, staffName, granteeCompanyId: row.grantee.id, granteeName: row.grantee.name, companyName: company!.name });
  return {
    session,
    user: {
      id: staff.id,
      companyId: staff.companyId,
      roleId: staff.roleId,
      firstName: staff.firstName,
      lastName: staff.lastName,
      displayName: staff.displayName,
      email: staff.email,
      // Support never carries a super admin's or a sentinel's own powers into a customer's console.
      isSuperAdmin: false,
      isInactive: false,
      isSentinel: false,
    },
    company: callerCompany(company!, zone, lockdown),
    permissions: permissionsOf(role, JSON.parse(modules ?? "[]") as string[]),
    support: {
      grantId: grant.id,
      granteeCompany: row.grantee,
      grantedBy: grantor!.displayName || grantor!.email,
      reason: grant.reason,
      expiresAt: grant.expiresAt,
    },
  };
}

/**
 * The shell's loader and the page's loader run for the same request: resolve the session once. Remix hands
 * each loader its own copy of the Request, so the request's load context (one object per request, server.ts)
 * is the key. Only reads share it: an action (a POST) may change what the session resolves to (a password,
 * a role), so it resolves its own, and the loaders that run after it in the same request resolve once more.
 */
const perRequest = new WeakMap<AppLoadContext, Promise<Auth | null>>();

/** A live support session (its own cookie, decision 0093) comes first; without one, the user's own session. */
async function callerOf(request: Request, env: Env, db: Db): Promise<Auth | null> {
  const support = await readSupportToken(request, env);
  const asSupport = support ? await authFromToken(db, env, support) : null;
  if (asSupport?.support) return asSupport;
  const token = await readSessionToken(request, env);
  return token ? authFromToken(db, env, token) : null;
}

export async function getAuth(request: Request, context: AppLoadContext): Promise<Auth | null> {
  const read = request.method === "GET" || request.method === "HEAD";
  let auth = read ? perRequest.get(context) : undefined;
  if (!auth) {
    const env = context.cloudflare.env;
    auth = callerOf(request, env, getDb(context));
    if (read) perRequest.set(context, auth);
  }
  const caller = await auth;
  if (caller?.session.mfaEnrolmentOnly) enrolmentOnly(request);
  return caller;
}

/**
 * A session the company's MFA policy limits to enrolment (decision 0123) opens the enrolment pages only:
 * any other page sends the browser to /mfaEnrolment, any other post is refused.
 */
function enrolmentOnly(request: Request): void {
  // Single fetch's data requests name the page as "/page.data" ("/_root.data" for "/").
  const path = new URL(request.url).pathname.replace(/\.data$/, "").replace(/^\/_root$/, "/");
  if (ENROLMENT_PATHS.includes(path)) return;
  if (request.method === "GET" || request.method === "HEAD") throw redirect("/mfaEnrolment");
  throw new Response(ENROLMENT_FIRST, { status: 403 });
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
  throw redirect(to, { headers: await clearSessionCookies(context.cloudflare.env) });
}

/** Set-Cookie headers that clear the session and any support session (sign-out, session over). */
export async function clearSessionCookies(env: Env): Promise<Headers> {
  const headers = new Headers();
  headers.append("Set-Cookie", await sessionCookie(env).serialize("", { maxAge: 0 }));
  headers.append("Set-Cookie", await supportCookie(env).serialize("", { maxAge: 0 }));
  return headers;
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
