import { Link, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { NAV_ICONS } from "~/components/shell/nav-icons";
import type { ShellData } from "./_app";

/** Home: one tile per area the user may open (company module: the platform set). */
export default function Home() {
  const data = useRouteLoaderData<ShellData>("routes/_app")!;
  const { t } = useTranslation("common");
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold">{t("home.welcome", { name: data.user.displayName })}</h1>
        <p className="text-muted-foreground">{data.company.name}</p>
      </div>
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
