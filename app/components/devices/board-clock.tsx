import { useTranslation } from "react-i18next";
import { Badge } from "~/components/ui/badge";
import { clockFlags } from "~/utils/board-clock";

export type BoardClockReading = { driftMs: number | null; tzdata: string | null; coreTzdata: string | null };

/**
 * A board's last clock reading (decision 0092): on time or how far off, and the zone data it decides
 * with, flagged by the gateway's rules. Shown on the device's page and the fleet's boards.
 */
export function BoardClock({ reading: r }: { reading: BoardClockReading }) {
  const { t } = useTranslation("devices");
  if (r.driftMs == null && r.tzdata == null) return <span className="text-muted-foreground">{t("clock.notReported")}</span>;
  const flags = clockFlags({ driftMs: r.driftMs, tzdata: r.tzdata, coreTzdata: r.coreTzdata ?? "" });
  return (
    <span className="grid gap-0.5" data-testid="board-clock">
      {r.driftMs != null &&
        (flags.drifted ? (
          <Badge variant="warning" className="w-fit whitespace-normal">
            {t(r.driftMs > 0 ? "clock.ahead" : "clock.behind", { seconds: Math.round(Math.abs(r.driftMs) / 1000) })}
          </Badge>
        ) : (
          <span>{t("clock.onTime")}</span>
        ))}
      {r.tzdata != null &&
        (flags.staleZones ? (
          <Badge variant="warning" className="w-fit whitespace-normal">
            {t("clock.zonesOld", { version: r.tzdata, core: r.coreTzdata })}
          </Badge>
        ) : (
          <span className="text-xs text-muted-foreground">{t("clock.zones", { version: r.tzdata })}</span>
        ))}
    </span>
  );
}
