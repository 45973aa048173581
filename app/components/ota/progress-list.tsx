import type { TFunction } from "i18next";
import { Badge } from "~/components/ui/badge";
import { ZonedTime } from "~/components/ui/zoned-time";
import type { ProgressRow } from "~/services/firmware.server";

const STATE_VARIANT = { installed: "success", failed: "destructive", downloading: "secondary", verified: "secondary", offered: "outline" } as const;

/** One progress bar per board and release, from what the boards reported through the gateway. */
export function ProgressList({ rows, t, timeZone }: { rows: ProgressRow[]; t: TFunction; timeZone: string }) {
  if (rows.length === 0) return <p className="p-4 text-center text-sm text-muted-foreground">{t("progressEmpty")}</p>;
  return (
    <ul className="grid gap-3" aria-label={t("progressCaption")}>
      {rows.map((r) => {
        const percent = r.state === "installed" ? 100 : r.blocksTotal > 0 ? Math.round((r.blocksDone / r.blocksTotal) * 100) : 0;
        return (
          <li key={`${r.deviceId}:${r.releaseId}`} className="grid gap-1.5 rounded-lg border bg-card p-3">
            <div className="flex flex-wrap items-center justify-between gap-2 text-sm">
              <span className="font-medium">
                {r.deviceName}{" "}
                <span className="text-muted-foreground">
                  · {r.company} · v{r.version}
                </span>
              </span>
              <Badge variant={STATE_VARIANT[r.state as keyof typeof STATE_VARIANT] ?? "outline"}>{t(`state_${r.state}`)}</Badge>
            </div>
            <progress className="h-2 w-full accent-primary" max={100} value={percent} aria-label={`${r.deviceName} ${percent}%`} />
            <div className="flex justify-between text-xs text-muted-foreground">
              <span>
                {t("blocks", { done: r.blocksDone, total: r.blocksTotal })} ({percent}%){r.detail ? ` · ${r.detail}` : ""}
              </span>
              <ZonedTime value={r.updatedAt} timeZone={timeZone} />
            </div>
          </li>
        );
      })}
    </ul>
  );
}
