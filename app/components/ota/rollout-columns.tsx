import type { ColumnDef } from "@tanstack/react-table";
import type { TFunction } from "i18next";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { dateColumn } from "~/components/data-table/date-column";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import type { RolloutRow } from "~/services/firmware-rollouts.server";

export type RolloutListRow = Pick<RolloutRow, "id" | "version" | "deviceType" | "previousVersion" | "state" | "wave" | "waves" | "health" | "pausedReason" | "createdAt">;

const STATE_BADGE = { running: "success", paused: "warning", aborted: "secondary", completed: "outline" } as const;
/** The console's own reason when a wave's failures paused it (services/firmware-rollouts.server.ts). */
const AUTO_PAUSE = /^(\d+) of (\d+) boards failed in wave (\d+)$/;

function pausedText(t: TFunction, reason: string) {
  const m = AUTO_PAUSE.exec(reason);
  return m ? t("pausedReason", { failed: m[1], boards: m[2], wave: m[3] }) : t("pausedByAdmin");
}

/** Columns of /firmwareRollouts: each wave's boards, installs and failures; pause, resume and abort ask first. */
export function rolloutColumns(t: TFunction, o: { modify: boolean; timeZone: string }): ColumnDef<RolloutListRow>[] {
  return [
    {
      id: "version",
      header: t("col.version"),
      cell: ({ row }) => (
        <div>
          <div className="font-medium">{row.original.version}</div>
          <div className="text-xs text-muted-foreground">{row.original.previousVersion ? t("previous", { version: row.original.previousVersion }) : t("noPrevious")}</div>
        </div>
      ),
    },
    { id: "deviceType", accessorKey: "deviceType", header: t("col.deviceType") },
    {
      id: "state",
      header: t("col.state"),
      cell: ({ row }) => (
        <div className="grid gap-1">
          <Badge variant={STATE_BADGE[row.original.state]} className="w-fit">
            {t(`rstate.${row.original.state}`)}
          </Badge>
          {row.original.state === "paused" && <span className="text-xs text-muted-foreground">{pausedText(t, row.original.pausedReason)}</span>}
        </div>
      ),
      meta: { className: "min-w-36 whitespace-normal" },
    },
    {
      id: "wave",
      header: t("col.wave"),
      cell: ({ row }) => t("waveOf", { wave: row.original.wave + 1, total: row.original.waves.length }),
      meta: { className: "whitespace-nowrap" },
    },
    {
      id: "progress",
      header: t("col.progress"),
      meta: { className: "min-w-64 whitespace-normal" },
      cell: ({ row }) => (
        <ul className="grid gap-0.5 text-xs">
          {row.original.health.map((w) => (
            <li key={w.wave} className={w.failed > 0 ? "text-destructive" : w.open ? undefined : "text-muted-foreground"}>
              {w.open
                ? t("waveLine", { wave: w.wave + 1, percent: w.percent, installed: w.installed, boards: w.boards, failed: w.failed })
                : t("waveClosed", { wave: w.wave + 1, percent: w.percent, boards: w.boards })}
            </li>
          ))}
        </ul>
      ),
    },
    dateColumn<RolloutListRow>({ id: "createdAt", header: t("col.started"), value: (r) => r.createdAt, timeZone: o.timeZone }),
    {
      id: "actions",
      header: () => <span className="sr-only">{t("actions")}</span>,
      meta: { className: "w-1 whitespace-nowrap text-right" },
      cell: ({ row }) => {
        const r = row.original;
        if (!o.modify || (r.state !== "running" && r.state !== "paused")) return null;
        const control = (intent: "pause" | "resume" | "abort", description: string) => (
          <ConfirmDialog
            trigger={
              <Button variant="outline" size="sm" aria-label={t(`${intent}Label`, { version: r.version })}>
                {t(intent)}
              </Button>
            }
            title={t(`${intent}Title`)}
            description={description}
            fields={{ intent, id: r.id }}
            confirmLabel={t(intent)}
            cancelLabel={t("cancel")}
            destructive={intent === "abort"}
          />
        );
        return (
          <div className="flex justify-end gap-2">
            {r.state === "running" ? control("pause", t("pauseText")) : control("resume", t("resumeText"))}
            {control(
              "abort",
              r.previousVersion
                ? t("abortText", { type: r.deviceType, previous: r.previousVersion, version: r.version })
                : t("abortTextNoPrevious", { type: r.deviceType, version: r.version }),
            )}
          </div>
        );
      },
    },
  ];
}
