import { useTranslation } from "react-i18next";
import { LockIcon } from "~/components/devices/device-icons";
import { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import type { TicketDevice } from "~/services/support.server";
import { cn } from "~/utils/cn";

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
    <Table data-testid="ticket-devices">
      <TableCaption className="sr-only">{t("devicesTitle")}</TableCaption>
      <TableHeader>
        <TableRow>
          <TableHead className="w-8">
            <span className="sr-only">{t("lock")}</span>
          </TableHead>
          <TableHead>{t("deviceName")}</TableHead>
          <TableHead>{t("prefix")}</TableHead>
          <TableHead>{t("kind")}</TableHead>
          <TableHead>{t("visible")}</TableHead>
          <TableHead>{t("sentinel")}</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {rows.map(([id, d]) => (
          <TableRow key={id}>
            <TableCell>
              <LockIcon className="size-4 text-muted-foreground" />
            </TableCell>
            <TableCell className={cn(!d.full_name && "text-muted-foreground italic")}>{d.full_name || t("unconfigured")}</TableCell>
            <TableCell className="font-mono">{d.prefix}</TableCell>
            <TableCell>{d.device ? t("kindDevice") : t("kindEkey")}</TableCell>
            <TableCell>
              <State on={!!d.visible} yes={t("yes")} no={t("no")} />
            </TableCell>
            <TableCell>
              <State on={!!d.sentinel} yes={t("yes")} no={t("no")} />
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
