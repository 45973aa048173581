import { useTranslation } from "react-i18next";
import { ZonedTime } from "~/components/ui/zoned-time";
import type { PlatformHome } from "~/services/home-platform.server";
import { formatDate } from "~/utils/format";
import { HomeCard } from "./home-card";
import { HomeList, HomeStats } from "./home-list";
import { StatLink } from "./stat-link";

/** The root company's home (decision 0056): what waits for the platform team and what the platform holds. */
export function PlatformHomeView({ home, zone }: { home: PlatformHome; zone: string }) {
  const { t, i18n } = useTranslation("dashboard");
  const { t: ta } = useTranslation("activity");
  const latest = home.firmware.latest;
  return (
    <div className="space-y-4">
      <HomeStats id="platform-title" title={t("platform.title")} className="grid grid-cols-2 gap-3 md:grid-cols-3 xl:grid-cols-6">
        <StatLink to="/viewCompanyRequests" value={home.requests.pending} label={t("platform.pending")} testId="stat-pendingRequests" />
        <StatLink to="/company" value={home.companies.resellers} label={t("platform.resellers")} testId="stat-resellers" />
        <StatLink to="/company" value={home.companies.customers} label={t("platform.customers")} testId="stat-customers" />
        <StatLink to="/registerDevices" value={home.boards.registered} label={t("platform.registered")} testId="stat-registered" />
        {home.stockLink && <StatLink to="/viewDeviceStock" value={home.boards.inStock} label={t("platform.inStock")} testId="stat-stock" />}
        <StatLink to="/ota" value={home.firmware.releases} label={t("platform.releases")} testId="stat-releases" />
      </HomeStats>
      <div className="grid gap-4 lg:grid-cols-2">
        <HomeCard id="pending-requests" title={t("platform.waiting")} more={{ to: "/viewCompanyRequests", label: t("platform.review") }}>
          <HomeList items={home.requests.oldest} empty={t("platform.noPending")}>
            {(r) => (
              <li key={r.id} className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1 py-2">
                <span className="min-w-0">
                  <span className="font-medium">{r.companyName}</span> <span className="text-sm text-muted-foreground">{t("platform.from", { reseller: r.reseller })}</span>
                </span>
                <span className="text-sm text-muted-foreground">{formatDate(r.createdAt, zone, i18n.language)}</span>
              </li>
            )}
          </HomeList>
        </HomeCard>
        <HomeCard id="recent-activity" title={t("platform.activity")}>
          <HomeList items={home.activity} empty={t("platform.noActivity")}>
            {(a) => (
              <li key={a.id} className="grid gap-0.5 py-2">
                <span className="flex flex-wrap items-baseline justify-between gap-x-4">
                  <span className="font-medium">{ta(`name.${a.name}`, { defaultValue: a.name })}</span>
                  <span className="text-xs text-muted-foreground">
                    <ZonedTime value={a.at} timeZone={zone} />
                  </span>
                </span>
                {a.summary && <span className="break-words text-sm text-muted-foreground">{a.summary}</span>}
              </li>
            )}
          </HomeList>
        </HomeCard>
        <HomeCard id="firmware" title={t("platform.firmware")} more={{ to: "/ota", label: t("platform.openOta") }}>
          <p className="text-sm">
            {latest
              ? t("platform.latest", { version: latest.version, type: latest.boardType || "-", date: formatDate(latest.createdAt, zone, i18n.language) })
              : t("platform.noReleases")}
          </p>
          <p className="text-sm text-muted-foreground">{t("platform.active", { count: home.firmware.active })}</p>
        </HomeCard>
      </div>
    </div>
  );
}
