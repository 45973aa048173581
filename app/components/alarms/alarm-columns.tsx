import type { SubmissionResult } from "@conform-to/react";
import type { ColumnDef } from "@tanstack/react-table";
import type { TFunction } from "i18next";
import { dateColumn } from "~/components/data-table/date-column";
import { Badge } from "~/components/ui/badge";
import { LinkButton } from "~/components/ui/link-button";
import { ZonedTime } from "~/components/ui/zoned-time";
import type { AlarmRow } from "~/services/door-alarms.server";
import { AcknowledgeDialog } from "./acknowledge-dialog";

const STATE_BADGE = { active: "destructive", acknowledged: "warning", cleared: "secondary" } as const;

/** Columns of /doorAlarms: the door, what happened, its state, when, and who acknowledged it with what note. */
export function alarmColumns(t: TFunction, o: { tz: string; canAcknowledge: boolean; refused?: { id: number; result: SubmissionResult<string[]> } }): ColumnDef<AlarmRow>[] {
  return [
    {
      id: "door",
      header: t("col.door"),
      cell: ({ row }) => (
        <LinkButton variant="link" size="inline" to={`/deviceDetails?id=${row.original.deviceId}`}>
          {row.original.door || `#${row.original.deviceId}`}
        </LinkButton>
      ),
    },
    { id: "kind", header: t("col.kind"), cell: ({ row }) => t(`kind.${row.original.kind}`) },
    {
      id: "state",
      header: t("col.state"),
      cell: ({ row }) => <Badge variant={STATE_BADGE[row.original.state]}>{t(`state.${row.original.state}`)}</Badge>,
    },
    dateColumn<AlarmRow>({ id: "raisedAt", header: t("col.raisedAt"), value: (r) => r.raisedAt, timeZone: o.tz, sortable: true }),
    {
      id: "lastSeenAt",
      accessorFn: (r) => r.lastSeenAt,
      enableSorting: true,
      header: t("col.lastSeenAt"),
      cell: ({ row }) => (
        <span className="grid">
          <ZonedTime value={row.original.lastSeenAt} timeZone={o.tz} />
          {row.original.repeats > 1 && <span className="text-xs text-muted-foreground">{t("repeats", { count: row.original.repeats })}</span>}
        </span>
      ),
    },
    {
      id: "acknowledged",
      header: t("col.acknowledged"),
      meta: { className: "whitespace-normal min-w-48" },
      cell: ({ row }) => {
        const r = row.original;
        if (r.state === "active")
          return o.canAcknowledge ? <AcknowledgeDialog id={r.id} door={r.door} kind={r.kind} lastResult={o.refused?.id === r.id ? o.refused.result : undefined} /> : null;
        return (
          <span className="grid text-sm">
            <span>{r.acknowledgedBy ?? ""}</span>
            <span className="text-muted-foreground">{r.note}</span>
          </span>
        );
      },
    },
  ];
}
