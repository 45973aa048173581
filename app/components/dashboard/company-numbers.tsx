import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { LinkButton } from "~/components/ui/link-button";
import type { DashboardNumbers } from "~/services/dashboard.server";
import { StatLink } from "./stat-link";

/** "At a glance": the company's numbers its modules allow, each opening the list it counts. */
export function CompanyNumbers({ numbers, deniedHref }: { numbers: DashboardNumbers; deniedHref: string }) {
  const { t } = useTranslation("dashboard");
  const stat = (key: string, to: string, value: number, extra?: ReactNode) => <StatLink key={key} to={to} value={value} label={t(key)} testId={`stat-${key}`} extra={extra} />;
  const dev = numbers.devices;
  const stats = [
    // A lockdown or evacuation in force comes first: how many doors it holds (decision 0087).
    numbers.lockdown && stat(numbers.lockdown.mode === "evacuation" ? "evacuationDoors" : "lockdownDoors", "/lockdown", numbers.lockdown.doors),
    numbers.users !== undefined && stat("users", "/users", numbers.users),
    // A board that has never connected is new, not broken: it is told apart from the offline ones, under "online", with what to do.
    dev &&
      stat(
        "online",
        "/devices?online=1",
        dev.online,
        dev.neverSeen > 0 && (
          <LinkButton variant="link" size="inline" to="/devices?online=never" data-testid="stat-neverSeen" className="px-4 pb-3 text-xs">
            {t("neverSeen", { count: dev.neverSeen })}
          </LinkButton>
        ),
      ),
    dev && stat("offline", "/devices?online=0", dev.offline),
    dev && stat("scheduledOpen", "/devices?schedule=open", dev.scheduledOpen),
    dev && stat("lowBattery", "/devices?battery=low", dev.lowBattery),
    numbers.denied && stat("denied", deniedHref, numbers.denied.count),
    numbers.alarms !== undefined && stat("alarms", "/doorAlarms?state=active", numbers.alarms),
    dev && stat("firmwarePending", "/devices?firmware=pending", dev.firmwarePending),
  ].filter(Boolean);
  if (stats.length === 0) return null;
  return (
    <section aria-labelledby="dashboard-title" className="space-y-3">
      <h2 id="dashboard-title" className="text-lg font-medium">
        {t("title")}
      </h2>
      <ul className="grid grid-cols-2 gap-3 md:grid-cols-4 xl:grid-cols-8">{stats}</ul>
    </section>
  );
}
