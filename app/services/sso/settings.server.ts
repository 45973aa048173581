/**
 * A company's single sign-on settings (decision 0121): read and written by its super admins only. The client
 * secret is write-only (sealed at rest; read back as set / not set). Requiring single sign-on needs a
 * break-glass user who is a live super admin of the company. The default role and every mapped role must be
 * the company's own and within what the caller holds (no escalation, as for assigning a role).
 */
import { and, asc, eq, inArray, isNull } from "drizzle-orm";
import type { SsoSettingsInput } from "~/schemas/sso";
import { grantOfRow, assertWithinCaller } from "~/services/roles.server";
import { activityInsert } from "~/utils/activity-insert.server";
import { sealSecret, type AtRestEnv } from "~/utils/at-rest.server";
import type { Auth } from "~/utils/auth-guards.server";
import { schema, type Db } from "~/utils/db.server";
import { forbidden, ServiceError } from "~/utils/errors.server";
import { SSO_MSG } from "./messages";

export type SsoSettingsView = {
  enabled: boolean;
  protocol: "oidc" | "saml";
  oidcIssuer: string;
  oidcClientId: string;
  clientSecretSet: boolean;
  oidcScopes: string;
  oidcGroupsClaim: string;
  idpEntityId: string;
  idpSsoUrl: string;
  idpSloUrl: string;
  idpCertificate: string;
  wantEncrypted: boolean;
  ssoRequired: boolean;
  breakGlassUserId: number | null;
  jitEnabled: boolean;
  jitDefaultRoleId: number | null;
  groupRoles: { groupName: string; roleId: number }[];
};

const assertSuperAdmin = (auth: Auth) => {
  if (!auth.user.isSuperAdmin || auth.support) forbidden();
};

export async function getSsoSettings(db: Db, auth: Auth): Promise<SsoSettingsView> {
  assertSuperAdmin(auth);
  const companyId = auth.company.id;
  const [rows, groups] = await db.batch([
    db.select().from(schema.ssoSettings).where(eq(schema.ssoSettings.companyId, companyId)),
    db
      .select({ groupName: schema.ssoGroupRoles.groupName, roleId: schema.ssoGroupRoles.roleId })
      .from(schema.ssoGroupRoles)
      .where(eq(schema.ssoGroupRoles.companyId, companyId))
      .orderBy(asc(schema.ssoGroupRoles.groupName)),
  ]);
  const s = rows[0];
  return {
    enabled: s?.enabled ?? false,
    protocol: s?.protocol ?? "oidc",
    oidcIssuer: s?.oidcIssuer ?? "",
    oidcClientId: s?.oidcClientId ?? "",
    clientSecretSet: Boolean(s?.oidcClientSecret),
    oidcScopes: s?.oidcScopes ?? "openid email profile",
    oidcGroupsClaim: s?.oidcGroupsClaim ?? "groups",
    idpEntityId: s?.idpEntityId ?? "",
    idpSsoUrl: s?.idpSsoUrl ?? "",
    idpSloUrl: s?.idpSloUrl ?? "",
    idpCertificate: s?.idpCertificate ?? "",
    wantEncrypted: s?.wantEncrypted ?? false,
    ssoRequired: s?.ssoRequired ?? false,
    breakGlassUserId: s?.breakGlassUserId ?? null,
    jitEnabled: s?.jitEnabled ?? false,
    jitDefaultRoleId: s?.jitDefaultRoleId ?? null,
    groupRoles: groups,
  };
}

/** What the settings page offers: the company's super admins (break-glass) and roles (JIT, mapping). */
export async function ssoChoices(db: Db, auth: Auth) {
  assertSuperAdmin(auth);
  const u = schema.users;
  const [admins, roles] = await db.batch([
    db
      .select({ id: u.id, name: u.displayName, email: u.email })
      .from(u)
      .where(and(eq(u.companyId, auth.company.id), eq(u.isSuperAdmin, true), isNull(u.deletedAt), eq(u.isInactive, false)))
      .orderBy(asc(u.displayName)),
    db.select({ id: schema.roles.id, title: schema.roles.title }).from(schema.roles).where(eq(schema.roles.companyId, auth.company.id)).orderBy(asc(schema.roles.title)),
  ]);
  return { admins, roles };
}

const roleRefused = (): never => {
  throw new ServiceError(422, SSO_MSG.roleNotFound, { fieldErrors: { jitDefaultRoleId: [SSO_MSG.roleNotFound] } });
};

export async function saveSsoSettings(db: Db, env: AtRestEnv, auth: Auth, v: SsoSettingsInput, now: number): Promise<{ message: string }> {
  assertSuperAdmin(auth);
  const companyId = auth.company.id;
  if (v.ssoRequired) {
    if (!v.breakGlassUserId) throw new ServiceError(422, SSO_MSG.breakGlassRequired, { fieldErrors: { breakGlassUserId: [SSO_MSG.breakGlassRequired] } });
  }
  if (v.breakGlassUserId) {
    const u = schema.users;
    const who = await db.query.users.findFirst({ where: and(eq(u.id, v.breakGlassUserId), eq(u.companyId, companyId), isNull(u.deletedAt)) });
    if (!who?.isSuperAdmin) throw new ServiceError(422, SSO_MSG.breakGlassNotSuperAdmin, { fieldErrors: { breakGlassUserId: [SSO_MSG.breakGlassNotSuperAdmin] } });
  }
  const roleIds = [...new Set([...(v.jitDefaultRoleId ? [v.jitDefaultRoleId] : []), ...v.groupRoles.map((g) => g.roleId)])];
  if (roleIds.length) {
    const [roles, modules] = await db.batch([
      db
        .select()
        .from(schema.roles)
        .where(and(eq(schema.roles.companyId, companyId), inArray(schema.roles.id, roleIds))),
      db.select().from(schema.roleModules).where(inArray(schema.roleModules.roleId, roleIds)),
    ]);
    if (roles.length !== roleIds.length) roleRefused();
    for (const r of roles)
      assertWithinCaller(
        auth,
        grantOfRow(
          r,
          modules.filter((m) => m.roleId === r.id).map((m) => m.moduleKey),
        ),
      );
  }
  const secret = v.clearClientSecret ? null : v.oidcClientSecret ? await sealSecret(env, v.oidcClientSecret) : undefined;
  const columns = {
    enabled: v.enabled,
    protocol: v.protocol,
    oidcIssuer: v.oidcIssuer.replace(/\/+$/, ""),
    oidcClientId: v.oidcClientId,
    ...(secret !== undefined && { oidcClientSecret: secret }),
    oidcScopes: v.oidcScopes || "openid email profile",
    oidcGroupsClaim: v.oidcGroupsClaim || "groups",
    idpEntityId: v.idpEntityId,
    idpSsoUrl: v.idpSsoUrl,
    idpSloUrl: v.idpSloUrl,
    idpCertificate: v.idpCertificate,
    wantEncrypted: v.wantEncrypted,
    ssoRequired: v.ssoRequired,
    breakGlassUserId: v.breakGlassUserId,
    jitEnabled: v.jitEnabled,
    jitDefaultRoleId: v.jitDefaultRoleId,
    updatedAt: now,
  };
  await db.batch([
    db
      .insert(schema.ssoSettings)
      .values({ companyId, ...columns, createdAt: now })
      .onConflictDoUpdate({ target: schema.ssoSettings.companyId, set: columns }),
    db.delete(schema.ssoGroupRoles).where(eq(schema.ssoGroupRoles.companyId, companyId)),
    ...(v.groupRoles.length ? [db.insert(schema.ssoGroupRoles).values(v.groupRoles.map((g) => ({ companyId, groupName: g.groupName, roleId: g.roleId })))] : []),
    activityInsert(db, {
      companyId,
      name: "Single Sign-On Modified",
      createdByUserId: auth.user.id,
      summary: `Single sign-on settings changed by ${auth.user.displayName}`,
      details: {
        enabled: v.enabled,
        protocol: v.protocol,
        ssoRequired: v.ssoRequired,
        breakGlassUserId: v.breakGlassUserId,
        jitEnabled: v.jitEnabled,
        groups: v.groupRoles.length,
      },
      at: now,
    }),
  ]);
  return { message: SSO_MSG.saved };
}
