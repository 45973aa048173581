import type { AppLoadContext } from "@remix-run/cloudflare";
import { getLanguage } from "~/i18n/i18next.server";
import { requireAuth } from "~/utils/auth-guards.server";
import { can, canUseVarPanel, navItems } from "~/utils/permissions";
import { idleLimits } from "~/utils/session.server";

/** What the signed-in shell (routes/_app) shows around every console page: header, menus and idle limits. */
export async function loadShell(request: Request, context: AppLoadContext) {
  const auth = await requireAuth(request, context);
  const { idle, warning } = idleLimits(context.cloudflare.env);
  const p = auth.permissions;
  return {
    lng: await getLanguage(request),
    user: { id: auth.user.id, displayName: auth.user.displayName, email: auth.user.email },
    company: { id: auth.company.id, zone: auth.company.zone ?? "UTC", name: auth.company.name, code: auth.company.code, type: auth.company.type },
    permissions: p,
    nav: [
      ...navItems(p, auth.company.type),
      // A user who hosts guests by role only (the visitor rules, not the users module, whose page links there).
      ...(!p.company && !can(p, "users") && auth.hostsByRole ? [{ key: "visitorPasses", to: "/visitorPasses", modules: [] }] : []),
    ],
    menu: {
      changePassword: p.change_password,
      varPanel: canUseVarPanel(p, auth.company.type),
      billingPortal: p.billing_portal,
    },
    idle: { idleMs: idle, warningMs: warning },
    lockdown: auth.company.lockdown ?? null,
    support: auth.support
      ? { company: auth.company.name, grantee: auth.support.granteeCompany.name, grantedBy: auth.support.grantedBy, reason: auth.support.reason, expiresAt: auth.support.expiresAt }
      : null,
  };
}

/** The shell's loader data, read by the header and by pages through `useRouteLoaderData("routes/_app")`. */
export type ShellData = Awaited<ReturnType<typeof loadShell>>;
