import { useTranslation } from "react-i18next";
import { Badge } from "~/components/ui/badge";
import { LinkButton } from "~/components/ui/link-button";
import type { ResellerHome } from "~/services/home-reseller.server";
import { formatDate } from "~/utils/format";
import { HomeCard } from "./home-card";
import { HomeList, HomeStats } from "./home-list";
import { StatLink } from "./stat-link";

const REQUEST_BADGE = { pending: "warning", accepted: "success", rejected: "destructive" } as const;

/**
 * A reseller's business on its home (decision 0056): stock, customers' health, company requests and open
 * invoices, each linking to its screen. The customers' numbers leave boards in stock out.
 */
export function ResellerHomeView({ home, zone, canRequest }: { home: ResellerHome; zone: string; canRequest: boolean }) {
  const { t, i18n } = useTranslation("dashboard");
  const stats = [
    home.stock !== undefined && <StatLink key="stock" to="/viewDeviceStock" value={home.stock} label={t("reseller.stock")} testId="stat-stock" />,
    home.children && <StatLink key="children" to="/varPanel" value={home.children.total} label={t("reseller.children")} testId="stat-children" />,
    home.requests && <StatLink key="pending" to="/viewCompanyRequests" value={home.requests.pending} label={t("reseller.pending")} testId="stat-pendingRequests" />,
    home.invoices && <StatLink key="issued" to="/billingPortal" value={home.invoices.issuedOpen} label={t("reseller.issuedOpen")} testId="stat-issuedOpen" />,
    home.invoices && <StatLink key="received" to="/billingPortal" value={home.invoices.receivedOpen} label={t("reseller.receivedOpen")} testId="stat-receivedOpen" />,
  ].filter(Boolean);
  if (stats.length === 0) return null;
  return (
    <div className="space-y-4">
      <HomeStats
        id="business-title"
        title={t("reseller.title")}
        className="grid grid-cols-2 gap-3 md:grid-cols-3 xl:grid-cols-5"
        after={
          home.invoices &&
          home.invoices.issuedOverdue > 0 && (
            <p className="text-sm text-destructive" data-testid="overdue">
              {t("reseller.overdue", { count: home.invoices.issuedOverdue })}
            </p>
          )
        }
      >
        {stats}
      </HomeStats>
      <div className="grid gap-4 lg:grid-cols-2">
        {home.children && (
          <HomeCard id="child-health" title={t("reseller.health")} more={{ to: "/varPanel", label: t("reseller.allChildren") }}>
            <HomeList items={home.children.rows} empty={t("reseller.noChildren")}>
              {(c) => (
                <li key={c.id} className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1 py-2" data-testid={`child-${c.code}`}>
                  <span className="min-w-0 font-medium">
                    {c.name} <span className="text-sm font-normal text-muted-foreground">({c.code})</span>
                  </span>
                  <span className="flex flex-wrap gap-2 text-sm">
                    <span className="text-muted-foreground">{t("reseller.devices", { count: c.devices })}</span>
                    <Badge variant={c.offline > 0 ? "destructive" : "outline"} data-testid="offline">
                      {t("reseller.offline", { count: c.offline })}
                    </Badge>
                    <Badge variant={c.lowBattery > 0 ? "warning" : "outline"} data-testid="lowBattery">
                      {t("reseller.lowBattery", { count: c.lowBattery })}
                    </Badge>
                  </span>
                </li>
              )}
            </HomeList>
          </HomeCard>
        )}
        {home.requests && (
          <HomeCard id="request-states" title={t("reseller.requests")} more={{ to: "/viewCompanyRequests", label: t("reseller.allRequests") }}>
            <HomeList items={home.requests.rows} empty={t("reseller.noRequests")}>
              {(r) => (
                <li key={r.id} className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1 py-2">
                  <span className="min-w-0 font-medium">{r.companyName}</span>
                  <span className="flex items-center gap-2 text-sm text-muted-foreground">
                    {formatDate(r.createdAt, zone, i18n.language)}
                    <Badge variant={REQUEST_BADGE[r.status]}>{t(`reseller.status.${r.status}`)}</Badge>
                  </span>
                </li>
              )}
            </HomeList>
            {canRequest && (
              <LinkButton to="/newCompanyRequest" variant="outline" size="sm" className="self-start">
                {t("reseller.newRequest")}
              </LinkButton>
            )}
          </HomeCard>
        )}
      </div>
    </div>
  );
}
