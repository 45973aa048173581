import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Outlet, useLoaderData } from "@remix-run/react";
import { BusyMain } from "~/components/loading-overlay";
import { AppHeader } from "~/components/shell/app-header";
import { IdleGuard } from "~/components/shell/idle-guard";
import { getLanguage } from "~/i18n/i18next.server";
import { requireAuth } from "~/utils/auth-guards.server";
import { canUseVarPanel, navItems } from "~/utils/permissions";
import { idleLimits } from "~/utils/session.server";

/** The signed-in shell: header, menus and idle protection around every console page. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireAuth(request, context);
  const { idle, warning } = idleLimits(context.cloudflare.env);
  const p = auth.permissions;
  return {
    lng: await getLanguage(request),
    user: { id: auth.user.id, displayName: auth.user.displayName, email: auth.user.email },
    company: { name: auth.company.name, code: auth.company.code, type: auth.company.type },
    permissions: p,
    nav: navItems(p),
    menu: {
      accountDetails: p.users,
      changePassword: p.change_password,
      varPanel: canUseVarPanel(p, auth.company.type),
      billingPortal: p.billing_portal,
    },
    idle: { idleMs: idle, warningMs: warning },
  };
}

export type ShellData = Awaited<ReturnType<typeof loader>>;

export default function AppShell() {
  const data = useLoaderData<typeof loader>();
  return (
    <div className="flex min-h-screen flex-col">
      <AppHeader data={data} />
      <BusyMain className="mx-auto w-full max-w-7xl flex-1 px-4 py-6 sm:px-6">
        <Outlet />
      </BusyMain>
      <IdleGuard idleMs={data.idle.idleMs} warningMs={data.idle.warningMs} />
    </div>
  );
}
