import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Outlet, useLoaderData, useRouteError, useRouteLoaderData } from "@remix-run/react";
import { BusyMain } from "~/components/loading-overlay";
import { LockdownBanner } from "~/components/lockdown/lockdown-banner";
import { AppHeader } from "~/components/shell/app-header";
import { SupportBanner } from "~/components/support-access/support-banner";
import { ErrorNotice } from "~/components/shell/error-notice";
import { IdleGuard } from "~/components/shell/idle-guard";
import { loadShell, type ShellData } from "~/utils/shell.server";

/** The signed-in shell: header, menus and idle protection around every console page. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  return loadShell(request, context);
}

export default function AppShell() {
  const data = useLoaderData<typeof loader>();
  return (
    <div className="flex min-h-screen flex-col">
      <AppHeader data={data} />
      {data.support && <SupportBanner support={data.support} timeZone={data.company.zone} />}
      {data.lockdown && <LockdownBanner lockdown={data.lockdown} timeZone={data.company.zone} />}
      <BusyMain className="mx-auto w-full max-w-7xl flex-1 px-4 py-6 sm:px-6">
        <Outlet />
      </BusyMain>
      <IdleGuard idleMs={data.idle.idleMs} warningMs={data.idle.warningMs} />
    </div>
  );
}

/**
 * A page the user may not open (403), a record that is gone or a path no page claims (404) keeps the signed-in shell:
 * header and menus stay, and the message says what happened, in the user's language.
 */
export function ErrorBoundary() {
  const error = useRouteError();
  const data = useRouteLoaderData<ShellData>("routes/_app");
  const body = <ErrorNotice error={error} className="min-h-[50vh]" />;
  if (!data) return <main className="p-6">{body}</main>;
  return (
    <div className="flex min-h-screen flex-col">
      <AppHeader data={data} />
      {data.support && <SupportBanner support={data.support} timeZone={data.company.zone} />}
      <main id="main" className="mx-auto w-full max-w-7xl flex-1 px-4 py-6 sm:px-6">
        {body}
      </main>
      <IdleGuard idleMs={data.idle.idleMs} warningMs={data.idle.warningMs} />
    </div>
  );
}
