import { useTranslation } from "react-i18next";
import { Icon } from "~/components/ui/icons";
import type { TicketDevice } from "~/services/support.server";
import { cn } from "~/utils/cn";

const LockIcon = () => (
  <Icon className="size-4 text-muted-foreground">
    <rect x="5" y="11" width="14" height="10" rx="2" />
    <path d="M8 11V7a4 4 0 018 0v4" />
  </Icon>
);

/** A yes/no state in words and colour (green yes, muted no), never colour alone. */
function State({ on, yes, no }: { on: boolean; yes: string; no: string }) {
  return <span className={cn("rounded px-1.5 py-0.5 text-xs font-medium", on ? "bg-green-100 text-green-800" : "bg-muted text-muted-foreground")}>{on ? yes : no}</span>;
}

/** The devices and e-keys the phone reported when the ticket was opened. */
export function TicketDevices({ devices }: { devices: Record<string, TicketDevice> }) {
  const { t } = useTranslation("support");
  const rows = Object.entries(devices);
  if (rows.length === 0)
    return (
      <p className="text-sm text-muted-foreground" data-testid="no-devices">
        {t("noDevices")}
      </p>
    );
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-sm" data-testid="ticket-devices">
        <caption className="sr-only">{t("devicesTitle")}</caption>
        <thead>
          <tr className="border-b text-left text-xs text-muted-foreground">
            <th scope="col" className="w-8 py-2">
              <span className="sr-only">{t("lock")}</span>
            </th>
            <th scope="col" className="py-2 pr-4">
              {t("deviceName")}
            </th>
            <th scope="col" className="py-2 pr-4">
              {t("prefix")}
            </th>
            <th scope="col" className="py-2 pr-4">
              {t("kind")}
            </th>
            <th scope="col" className="py-2 pr-4">
              {t("visible")}
            </th>
            <th scope="col" className="py-2">
              {t("sentinel")}
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map(([id, d]) => (
            <tr key={id} className="border-b last:border-0">
              <td className="py-2">
                <LockIcon />
              </td>
              <td className={cn("py-2 pr-4", !d.full_name && "text-muted-foreground italic")}>{d.full_name || t("unconfigured")}</td>
              <td className="py-2 pr-4 font-mono">{d.prefix}</td>
              <td className="py-2 pr-4">{d.device ? t("kindDevice") : t("kindEkey")}</td>
              <td className="py-2 pr-4">
                <State on={!!d.visible} yes={t("yes")} no={t("no")} />
              </td>
              <td className="py-2">
                <State on={!!d.sentinel} yes={t("yes")} no={t("no")} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
