import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { LinkButton } from "~/components/ui/link-button";
import type { ReactNode } from "react";
import { Link, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { StatLink } from "~/components/dashboard/stat-link";
import { NAV_ICONS } from "~/components/shell/nav-icons";
import { dashboardNumbers, DENIED_ACTIVITY } from "~/services/dashboard.server";
import { requireAuth } from "~/utils/auth-guards.server";
import { getDb, nowMs } from "~/utils/db.server";
import { companyLogDb } from "~/utils/company-log.server";
import type { ShellData } from "~/utils/shell.server";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireAuth(request, context);
  const numbers = await dashboardNumbers(getDb(context), companyLogDb(context.cloudflare.env, auth.company.id), auth, context.core, nowMs());
  // /activity filtered to today's denials (company zone), with the activity log's own URL names.
  const today = numbers.denied?.today ?? "";
  const deniedHref = `/activity?${new URLSearchParams({ filterFromDate: today, filterToDate: today, additionalFilter: DENIED_ACTIVITY })}`;
  return { numbers, deniedHref };
}

/** Home: numbers the user's modules allow, each a link to its filtered list, then one tile per area. */
export default function Home() {
  const data = useRouteLoaderData<ShellData>("routes/_app")!;
  const { numbers, deniedHref } = useLoaderData<typeof loader>();
  const { t } = useTranslation("common");
  const { t: td } = useTranslation("dashboard");
  const stat = (key: string, to: string, value: number, extra?: ReactNode) => (
    <StatLink key={key} to={to} value={value} label={td(key)} testId={`stat-${key}`} ariaLabel={td("open", { label: td(key), count: value })} extra={extra} />
  );
  const dev = numbers.devices;
  const stats = [
    numbers.users !== undefined && stat("users", "/users", numbers.users),
    dev && stat("online", "/devices?online=1", dev.online),
    dev &&
      stat(
        "offline",
        "/devices?online=0",
        dev.offline,
        dev.neverSeen > 0 && (
          <LinkButton variant="link" size="inline" to="/devices?online=never" data-testid="stat-neverSeen" className="px-4 pb-3 text-xs">
            {td("neverSeen", { count: dev.neverSeen })}
          </LinkButton>
        ),
      ),
    dev && stat("scheduledOpen", "/devices?schedule=open", dev.scheduledOpen),
    dev && stat("lowBattery", "/devices?battery=low", dev.lowBattery),
    numbers.denied && stat("denied", deniedHref, numbers.denied.count),
    dev && stat("firmwarePending", "/devices?firmware=pending", dev.firmwarePending),
  ].filter(Boolean);
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold">{t("home.welcome", { name: data.user.displayName })}</h1>
        <p className="text-muted-foreground">{data.company.name}</p>
      </div>
      {stats.length > 0 && (
        <section aria-labelledby="dashboard-title" className="space-y-3">
          <h2 id="dashboard-title" className="text-lg font-medium">
            {td("title")}
          </h2>
          <ul className="grid grid-cols-2 gap-3 md:grid-cols-4 xl:grid-cols-7">{stats}</ul>
        </section>
      )}
      {data.nav.length === 0 ? (
        <p className="rounded-lg border border-dashed border-border p-8 text-center text-muted-foreground">{t("home.nothing")}</p>
      ) : (
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4" aria-label={t("home.tiles")}>
          {data.nav.map((item) => {
            const Icon = NAV_ICONS[item.key];
            return (
              <li key={item.key}>
                <Link
                  to={item.to}
                  data-testid={`tile-${item.key}`}
                  className="flex h-32 flex-col items-center justify-center gap-3 rounded-xl border border-border bg-card shadow-sm transition hover:border-primary hover:shadow-md focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
                >
                  {Icon && <Icon className="size-9 text-primary" />}
                  <span className="font-medium">{t(`nav.${item.key}`)}</span>
                </Link>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
