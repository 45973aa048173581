import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Link, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { CompanyNumbers } from "~/components/dashboard/company-numbers";
import { FirstRunChecklist } from "~/components/dashboard/first-run-checklist";
import { PlatformHomeView } from "~/components/dashboard/platform-home";
import { ResellerHomeView } from "~/components/dashboard/reseller-home";
import { NAV_ICONS } from "~/components/shell/nav-icons";
import { dashboardNumbers, DENIED_ACTIVITY, type DashboardNumbers } from "~/services/dashboard.server";
import { isPlatformHome, platformHome, type PlatformHome } from "~/services/home-platform.server";
import { resellerHomeStatements, type ResellerHome } from "~/services/home-reseller.server";
import { companyZone, requireAuth } from "~/utils/auth-guards.server";
import { batchOf } from "~/utils/batch-of.server";
import { getDb, nowMs } from "~/utils/db.server";
import { companyLogDb } from "~/utils/company-log.server";
import { canRequestCompany } from "~/utils/permissions";
import type { ShellData } from "~/utils/shell.server";

type HomeData = { numbers: DashboardNumbers; deniedHref: string; zone: string; reseller?: ResellerHome; platform?: PlatformHome; canRequest: boolean };

/**
 * Home per role (decision 0056): root gets the platform's queue and holdings, a reseller its business
 * beside its own numbers, a customer company its numbers and, until done, the first-run checklist.
 * Each kind reads D1 in one batch beside the session.
 */
export async function loader({ request, context }: LoaderFunctionArgs): Promise<HomeData> {
  const auth = await requireAuth(request, context);
  const db = getDb(context);
  const log = companyLogDb(context.cloudflare.env, auth.company.id);
  const now = nowMs();
  const zone = companyZone(auth);
  const canRequest = canRequestCompany(auth.permissions, auth.company.type);
  if (isPlatformHome(auth)) return { numbers: {}, deniedHref: "", zone, platform: await platformHome(db, log, auth), canRequest };
  const batch = batchOf(db);
  const readReseller = auth.company.type === "var" ? resellerHomeStatements(batch, db, auth, now) : null;
  const numbers = await dashboardNumbers(db, log, auth, context.core, now, batch);
  const reseller = readReseller?.(await batch.run());
  // /activity filtered to today's denials (company zone), with the activity log's own URL names.
  const today = numbers.denied?.today ?? "";
  const deniedHref = `/activity?${new URLSearchParams({ filterFromDate: today, filterToDate: today, additionalFilter: DENIED_ACTIVITY })}`;
  return { numbers, deniedHref, zone, reseller, canRequest };
}

export default function Home() {
  const data = useRouteLoaderData<ShellData>("routes/_app")!;
  const { numbers, deniedHref, zone, reseller, platform, canRequest } = useLoaderData<typeof loader>();
  const { t } = useTranslation("common");
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold">{t("home.welcome", { name: data.user.displayName })}</h1>
        <p className="text-muted-foreground">{data.company.name}</p>
      </div>
      {numbers.checklist && <FirstRunChecklist checklist={numbers.checklist} />}
      {platform && <PlatformHomeView home={platform} zone={zone} />}
      {reseller && <ResellerHomeView home={reseller} zone={zone} canRequest={canRequest} />}
      <CompanyNumbers numbers={numbers} deniedHref={deniedHref} />
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
