import type { ColumnDef } from "@tanstack/react-table";
import type { TFunction } from "i18next";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { EmailText } from "~/components/data-table/email-link";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { ZonedTime } from "~/components/ui/zoned-time";
import type { PassState } from "~/schemas/visitor-passes";
import { formatCalendarDate } from "~/utils/format";

/** A row of /visitorPasses: the service's pass with its doors' names and whether the reader may revoke it. */
export type PassListRow = {
  id: number;
  state: PassState;
  guestName: string;
  guestEmail: string | null;
  guestPhone: string | null;
  hostName: string;
  doors: string[];
  groupName: string | null;
  oneEntry: boolean;
  startDate: string;
  endDate: string;
  startTime: string;
  endTime: string;
  phoneBound: boolean;
  firstEntryAt: number | null;
  canRevoke: boolean;
};

const STATE_BADGE: Record<PassState, "success" | "secondary" | "outline" | "destructive"> = {
  active: "success",
  upcoming: "secondary",
  used: "outline",
  expired: "outline",
  revoked: "destructive",
};

/** The pass's state as a badge (its text says it: colour is not the only sign). */
export function PassStateBadge({ state, t }: { state: PassState; t: TFunction }) {
  return <Badge variant={STATE_BADGE[state]}>{t(`state.${state}`)}</Badge>;
}

/** The visit: its dates, the daily hours beneath, and "One entry" for a pass spent at its first door. */
function Visit({ row, t, lang }: { row: PassListRow; t: TFunction; lang: string }) {
  const start = formatCalendarDate(row.startDate, lang);
  const days = row.startDate === row.endDate ? start : `${start} – ${formatCalendarDate(row.endDate, lang)}`;
  return (
    <div className="grid justify-items-start gap-0.5">
      <span>{days}</span>
      <span className="text-xs text-muted-foreground">
        {row.startTime}–{row.endTime}
      </span>
      {row.oneEntry && (
        <Badge variant="outline" className="mt-0.5">
          {t("oneEntry")}
        </Badge>
      )}
    </div>
  );
}

/** Columns of /visitorPasses: guest (with e-mail and phone), host, doors, visit, state, first entry, revoke. */
export function passColumns(t: TFunction, opts: { timeZone: string; lang: string }): ColumnDef<PassListRow>[] {
  return [
    {
      id: "guest",
      header: t("col.guest"),
      meta: { className: "min-w-36 whitespace-normal" },
      cell: ({ row: { original: r } }) => (
        <div className="grid gap-0.5">
          <span className="font-medium break-words">{r.guestName}</span>
          {r.guestEmail && (
            <span className="text-xs break-words text-muted-foreground">
              <EmailText email={r.guestEmail} />
            </span>
          )}
          {r.guestPhone && <span className="text-xs whitespace-nowrap text-muted-foreground">{r.guestPhone}</span>}
        </div>
      ),
    },
    { id: "host", header: t("col.host"), meta: { className: "whitespace-normal" }, cell: ({ row }) => row.original.hostName },
    {
      id: "doors",
      header: t("col.doors"),
      meta: { className: "min-w-32 whitespace-normal" },
      cell: ({ row: { original: r } }) => (r.groupName != null ? t("group", { name: r.groupName }) : r.doors.join(", ")),
    },
    { id: "visit", header: t("col.visit"), meta: { className: "whitespace-normal" }, cell: ({ row }) => <Visit row={row.original} t={t} lang={opts.lang} /> },
    {
      id: "state",
      header: t("col.state"),
      meta: { className: "whitespace-normal" },
      cell: ({ row: { original: r } }) => (
        <div className="grid justify-items-start gap-0.5">
          <PassStateBadge state={r.state} t={t} />
          {r.phoneBound && (r.state === "active" || r.state === "upcoming") && <span className="text-xs text-muted-foreground">{t("onPhone")}</span>}
        </div>
      ),
    },
    {
      id: "firstEntry",
      header: t("col.firstEntry"),
      meta: { className: "whitespace-normal" },
      cell: ({ row }) => <ZonedTime value={row.original.firstEntryAt} timeZone={opts.timeZone} fallback={t("notYet")} />,
    },
    {
      id: "revoke",
      header: () => <span className="sr-only">{t("col.revoke")}</span>,
      meta: { className: "w-24 text-right" },
      cell: ({ row: { original: r } }) =>
        r.canRevoke ? (
          <ConfirmDialog
            trigger={
              <Button variant="outline" size="sm" aria-label={t("revokeLabel", { name: r.guestName })}>
                {t("revoke")}
              </Button>
            }
            title={t("revokeTitle")}
            description={t("revokeDescription", { name: r.guestName })}
            fields={{ intent: "revoke", id: r.id }}
            confirmLabel={t("revoke")}
            cancelLabel={t("cancel")}
            destructive
          />
        ) : null,
    },
  ];
}
