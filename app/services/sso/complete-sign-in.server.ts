/**
 * The end of every single sign-on (OpenID Connect here, SAML 2.0 beside it): the protocol has verified who
 * the identity provider says signed in; this turns that into a console session (decision 0121).
 *
 * Contract of `completeSsoSignIn(db, ctx, identity)`, for every protocol:
 * - The caller has verified the protocol's message (signature, issuer, audience, times, its own
 *   state/nonce or InResponseTo) and passes only what it verified.
 * - `replayId` is the message's own id (the ID token's `jti`, or its SHA-256 when it has none; the SAML
 *   assertion's ID) and `replayExpiresAt` when the message stops being valid (epoch ms). An id seen before
 *   for the company is refused (401 `sso-replayed`); it is remembered until `replayExpiresAt`.
 * - The user is the company's live user with the stored subject (`sso_identities`), else the one with the
 *   e-mail (case-insensitive). None and JIT creation off (or no role to give): 401 `sso-no-account` /
 *   `sso-no-role`. A deactivated or flagged user, or one without console access, is refused as at password
 *   sign-in.
 * - JIT creation (when the company switched it on) makes a console user (a sentinel, never a super admin)
 *   with the role `roleForGroups` picks from the company's own mapping, or the default role when none of the
 *   groups maps. A user JIT made has that role set again at each sign-in (a group taken away takes its role
 *   away); a user an admin made keeps the role the admin gave.
 * - The session is the password sign-in's (a `web` row in `sessions`, decision 0010); `sso_sessions` keeps
 *   what single logout needs (`idToken`, or SAML's `nameId` + `sessionIndex`).
 * - Writes "Single Sign-On Login" ("<name> signed in through single sign-on") in the same batch as the
 *   user's last activity.
 * - Returns the session's token (for the cookie: `ssoSignedInResponse` in `./respond.server.ts`) and
 *   `redirectTo`: `returnTo` when it is a console path (`safeRedirect`), "/" otherwise.
 *
 * Errors are `ServiceError`s with `errorCode`s starting `sso-`; the message is a `SSO_MSG` text.
 */
import { and, eq, inArray, isNull, lt, sql } from "drizzle-orm";
import { AUTH_MSG } from "~/services/auth.server";
import { activityInsert } from "~/utils/activity-insert.server";
import { schema, type Db } from "~/utils/db.server";
import { safeRedirect } from "~/utils/redirect";
import { ServiceError } from "~/utils/errors.server";
import { newSession } from "~/utils/session.server";
import { SSO_MSG } from "./messages";

export type SsoProtocol = "oidc" | "saml";

export type SsoIdentity = {
  companyId: number;
  protocol: SsoProtocol;
  /** The identity provider's stable id for the person (OIDC `sub`, SAML NameID). */
  subject: string;
  email: string;
  firstName?: string;
  lastName?: string;
  /** The identity provider's group names (OIDC `groups` claim, SAML group attribute). */
  groups: string[];
  replayId: string;
  replayExpiresAt: number;
  /** Where the user asked to go; checked here. */
  returnTo: string | null | undefined;
  /** Kept for single logout. */
  idToken?: string;
  nameId?: string;
  sessionIndex?: string;
};

export type SsoSignInResult = { token: string; sessionId: string; userId: number; redirectTo: string; createdByJit: boolean; roleId: number | null };

/** What a role grants, comparable. */
type Grant = { id: number; modules: Set<string>; all: boolean; add: boolean; modify: boolean; view: boolean; del: boolean };

/** Does `a` grant everything `b` grants? (permission_all stands for every action, decision 0011.) */
export function grantIncludes(a: Grant, b: Grant): boolean {
  for (const m of b.modules) if (!a.modules.has(m)) return false;
  if (b.all && !a.all) return false;
  const has = (flag: boolean) => a.all || flag;
  return (!b.add || has(a.add)) && (!b.modify || has(a.modify)) && (!b.del || has(a.del)) && (!b.view || has(a.view));
}

const grantSize = (g: Grant) => g.modules.size * 8 + [g.all, g.add, g.modify, g.view, g.del].filter(Boolean).length;

/**
 * The role a user with `groups` gets from the company's mapping. Only the company's own roles that the
 * mapping names for one of the user's groups are candidates, so nobody gets a role the mapping does not
 * give one of their groups. With several:
 * - one candidate that includes every other (each module and action of theirs) is chosen: it grants
 *   nothing a single mapped group does not already give;
 * - when none includes all the others (say "doors" and "billing" roles), the smallest candidate is chosen
 *   (fewest modules, then fewest actions, then lowest id): never a role above any one group's, and never a
 *   union no role of the mapping holds.
 * No group maps: `defaultRoleId` (when it is one of the company's roles), else null.
 */
export async function roleForGroups(db: Db, companyId: number, groups: string[], defaultRoleId: number | null): Promise<number | null> {
  const names = [...new Set(groups.map((g) => g.trim()).filter(Boolean))].slice(0, 200);
  const mapped = names.length
    ? await db
        .select({ roleId: schema.ssoGroupRoles.roleId })
        .from(schema.ssoGroupRoles)
        .where(and(eq(schema.ssoGroupRoles.companyId, companyId), inArray(schema.ssoGroupRoles.groupName, names)))
    : [];
  const ids = [...new Set(mapped.map((m) => m.roleId))];
  if (!ids.length) return defaultRoleId === null ? null : ((await companyRoles(db, companyId, [defaultRoleId]))[0]?.id ?? null);
  const grants = await companyRoles(db, companyId, ids);
  if (!grants.length) return null;
  const top = grants.find((g) => grants.every((o) => grantIncludes(g, o)));
  if (top) return top.id;
  return [...grants].sort((a, b) => grantSize(a) - grantSize(b) || a.id - b.id)[0].id;
}

/** The company's own roles among `ids`, with what they grant (another company's or the platform's never). */
async function companyRoles(db: Db, companyId: number, ids: number[]): Promise<Grant[]> {
  const [roles, modules] = await db.batch([
    db
      .select()
      .from(schema.roles)
      .where(and(eq(schema.roles.companyId, companyId), inArray(schema.roles.id, ids))),
    db
      .select({ roleId: schema.roleModules.roleId, key: schema.roleModules.moduleKey })
      .from(schema.roleModules)
      .where(and(eq(schema.roleModules.companyId, companyId), inArray(schema.roleModules.roleId, ids))),
  ]);
  return roles.map((r) => ({
    id: r.id,
    modules: new Set(modules.filter((m) => m.roleId === r.id).map((m) => m.key)),
    all: r.permissionAll,
    add: r.permissionAdd,
    modify: r.permissionModify,
    view: r.permissionView,
    del: r.permissionDelete,
  }));
}

/** Refuses an id the company has seen before; remembers it until it expires (and forgets expired ones). */
export async function spendReplayId(db: Db, companyId: number, id: string, expiresAt: number, now: number): Promise<void> {
  const u = schema.ssoUsedIds;
  const [, fresh] = await db.batch([
    db.delete(u).where(lt(u.expiresAt, now)),
    db
      .insert(u)
      .values({ companyId, usedId: id.slice(0, 512), expiresAt: Math.max(expiresAt, now + 60_000) })
      .onConflictDoNothing()
      .returning({ id: u.usedId }),
  ]);
  if (!fresh.length) throw new ServiceError(401, SSO_MSG.replayed, { errorCode: "sso-replayed" });
}

const fail = (message: string, errorCode: string): never => {
  throw new ServiceError(401, message, { errorCode });
};

/** Turns a verified identity into a console session. See the module's contract. */
export async function completeSsoSignIn(db: Db, ctx: { request: Request; now: number }, id: SsoIdentity): Promise<SsoSignInResult> {
  const { now } = ctx;
  if (!id.subject || !id.replayId) fail(SSO_MSG.failed, "sso-failed");
  await spendReplayId(db, id.companyId, `${id.protocol}:${id.replayId}`, id.replayExpiresAt, now);

  const [settings, company] = await Promise.all([
    db.query.ssoSettings.findFirst({ where: eq(schema.ssoSettings.companyId, id.companyId) }),
    db.query.companies.findFirst({ where: and(eq(schema.companies.id, id.companyId), isNull(schema.companies.deletedAt)) }),
  ]);
  if (!settings?.enabled || !company || settings.protocol !== id.protocol) fail(SSO_MSG.notEnabled, "sso-not-enabled");
  if (company!.isDeactive) fail(AUTH_MSG.deactivated, "deactivated");

  const u = schema.users;
  const si = schema.ssoIdentities;
  const email = id.email.trim().toLowerCase();
  const [linked] = await db
    .select({ user: u, jit: si.createdByJit })
    .from(si)
    .innerJoin(u, eq(u.id, si.userId))
    .where(and(eq(si.companyId, id.companyId), eq(si.protocol, id.protocol), eq(si.subject, id.subject), isNull(u.deletedAt), eq(u.companyId, id.companyId)))
    .limit(1);
  let user: typeof u.$inferSelect | undefined = linked?.user;
  let createdByJit = linked?.jit ?? false;
  if (!user && email) {
    user = await db.query.users.findFirst({ where: and(eq(u.companyId, id.companyId), eq(u.email, email), isNull(u.deletedAt)) });
  }

  const writes: Parameters<Db["batch"]>[0][number][] = [];
  let roleId = user?.roleId ?? null;
  if (!user) {
    if (!settings!.jitEnabled || !email) fail(SSO_MSG.noAccount, "sso-no-account");
    roleId = await roleForGroups(db, id.companyId, id.groups, settings!.jitDefaultRoleId);
    if (roleId === null) fail(SSO_MSG.noRole, "sso-no-role");
    const firstName = (id.firstName ?? "").trim().slice(0, 50) || email.split("@")[0].slice(0, 50);
    const lastName = (id.lastName ?? "").trim().slice(0, 50);
    const [made] = await db
      .insert(u)
      .values({
        companyId: id.companyId,
        roleId,
        firstName,
        lastName,
        displayName: `${firstName} ${lastName}`.trim().slice(0, 100),
        email,
        isSentinel: true,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    user = made;
    createdByJit = true;
  } else {
    if (user.isInactive) fail(AUTH_MSG.deactivated, "deactivated");
    if (user.isFlagged) fail(AUTH_MSG.flagged, "flagged");
    if (!user.isSentinel && !user.isSuperAdmin) fail(AUTH_MSG.noConsole, "no-console");
    if (createdByJit && settings!.jitEnabled && !user.isSuperAdmin) {
      roleId = await roleForGroups(db, id.companyId, id.groups, settings!.jitDefaultRoleId);
      if (roleId === null) fail(SSO_MSG.noRole, "sso-no-role");
      if (roleId !== user.roleId) writes.push(db.update(u).set({ roleId, updatedAt: now }).where(eq(u.id, user.id)));
    }
  }
  const who = user!;

  const session = await newSession({ userId: who.id, companyId: id.companyId, kind: "web", request: ctx.request, now });
  await db.batch([
    db.insert(schema.sessions).values(session.values),
    db
      .insert(si)
      .values({ companyId: id.companyId, protocol: id.protocol, subject: id.subject.slice(0, 512), userId: who.id, createdByJit, createdAt: now })
      .onConflictDoUpdate({ target: [si.companyId, si.protocol, si.subject], set: { userId: who.id } }),
    db.insert(schema.ssoSessions).values({
      sessionId: session.id,
      companyId: id.companyId,
      protocol: id.protocol,
      idToken: id.idToken ?? null,
      nameId: id.nameId ?? null,
      sessionIndex: id.sessionIndex ?? null,
      createdAt: now,
    }),
    ...writes,
    db.update(u).set({ lastActivityAt: now }).where(eq(u.id, who.id)),
    activityInsert(db, {
      companyId: id.companyId,
      name: "Single Sign-On Login",
      createdByUserId: who.id,
      targetUserId: who.id,
      summary: `${who.displayName} signed in through single sign-on`,
      details: { protocol: id.protocol, createdByJit, roleId },
      at: now,
    }),
  ]);
  return { token: session.token, sessionId: session.id, userId: who.id, redirectTo: safeRedirect(id.returnTo), createdByJit, roleId };
}

/** Drops sign-in attempts past their expiry (the cron's purge calls it). */
export async function purgeSsoAttempts(db: Db, now: number): Promise<void> {
  await db.batch([
    db.delete(schema.ssoSignInAttempts).where(lt(schema.ssoSignInAttempts.expiresAt, now)),
    db.delete(schema.ssoUsedIds).where(lt(schema.ssoUsedIds.expiresAt, now)),
    db.delete(schema.ssoSessions).where(sql`${schema.ssoSessions.sessionId} not in (select id from sessions)`),
  ]);
}
