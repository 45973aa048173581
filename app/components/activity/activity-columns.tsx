import type { ColumnDef } from "@tanstack/react-table";
import type { TFunction } from "i18next";
import { LinkButton } from "~/components/ui/link-button";
import { memoT } from "~/i18n/memo-t";
import type { FilterType } from "~/schemas/activity";
import { activityLabel, denialReason, outcomeOf, summaryText } from "./activity-text";
import type { ActivityGridRow } from "./grid-row";
import { OutcomeMark } from "./outcome-mark";

/** Builds a link to /activity with some filter params replaced (null removes one); paging restarts. */
export type FilterHref = (changes: Record<string, string | null>) => string;

/**
 * Names, dates and triggers wrap between words, and a name longer than its column (a one-word device
 * or user name) breaks inside, so the log fits 1024 px in Spanish whatever the rows hold.
 */
const WRAP = { className: "whitespace-normal [overflow-wrap:anywhere]" };

/** A cell that narrows the log to the thing it names (docs/ARCHITECTURE.md §7.1: clicking a cell filters). */
function FilterCell({ to, label, text }: { to: string; label: string; text: string }) {
  return (
    <LinkButton to={to} aria-label={label} variant="link" size="inline" className="font-normal" preventScrollReset>
      {text}
    </LinkButton>
  );
}

function byIdColumn(t: TFunction, href: FilterHref, id: string, type: FilterType, pick: (r: ActivityGridRow) => { id: number; name: string } | null): ColumnDef<ActivityGridRow> {
  return {
    id,
    header: t(`col.${id}`),
    enableSorting: true,
    meta: WRAP,
    accessorFn: (r) => pick(r)?.name ?? "",
    cell: ({ row }) => {
      const v = pick(row.original);
      return v ? <FilterCell to={href({ id: String(v.id), type })} label={t("filterBy", { what: t(`col.${id}`), name: v.name })} text={v.name} /> : "-";
    },
  };
}

/** /activity columns; ids match ACTIVITY_SORTS. Each distinct text is translated once for the whole page. */
export function activityColumns(translate: TFunction, href: FilterHref): ColumnDef<ActivityGridRow>[] {
  const t = memoT(translate);
  return [
    {
      id: "date",
      header: t("col.date"),
      accessorKey: "when",
      enableSorting: true,
      meta: { className: "whitespace-normal min-w-28" },
      cell: ({ row }) => (
        <FilterCell to={href({ filterFromDate: row.original.day, filterToDate: row.original.day })} label={t("filterByDay", { day: row.original.when })} text={row.original.when} />
      ),
    },
    {
      id: "activity",
      header: t("col.activity"),
      accessorKey: "activityName",
      enableSorting: true,
      meta: WRAP,
      cell: ({ row }) => {
        const r = row.original;
        const outcome = outcomeOf(r);
        const label = activityLabel(t, r);
        // Opens the entry; it does not filter, so it reads as text, not as a link-coloured cell.
        return (
          <span className="inline-flex flex-wrap items-center gap-2">
            {outcome && <OutcomeMark outcome={outcome} label={t(`outcome.${outcome}`)} />}
            <LinkButton to={`/activityDetails?id=${r.id}`} variant="link" size="inline" className="text-foreground" aria-label={t("openDetails", { name: label })}>
              {label}
            </LinkButton>
          </span>
        );
      },
    },
    {
      id: "trigger",
      header: t("col.trigger"),
      accessorKey: "operationType",
      enableSorting: true,
      meta: WRAP,
      cell: ({ row }) => (
        <FilterCell
          to={href({ filterOperationType: row.original.operationType })}
          label={t("filterBy", { what: t("col.trigger"), name: t(`op.${row.original.operationType}`) })}
          text={t(`op.${row.original.operationType}`)}
        />
      ),
    },
    byIdColumn(t, href, "triggeredBy", "Triggered By", (r) => r.createdByUser && { id: r.createdByUser.id, name: r.createdByUser.displayName }),
    byIdColumn(t, href, "user", "User", (r) => r.targetUser && { id: r.targetUser.id, name: r.targetUser.displayName }),
    byIdColumn(t, href, "device", "Device", (r) => r.targetDevice && { id: r.targetDevice.id, name: r.targetDevice.fullName || r.targetDevice.displayName }),
    byIdColumn(t, href, "deviceGroup", "Device Group", (r) => r.targetDeviceGroup && { id: r.targetDeviceGroup.id, name: r.targetDeviceGroup.fullName }),
    {
      id: "summary",
      header: t("col.summary"),
      accessorKey: "summary",
      // Free text may hold long unbroken words (an e-mail, a serial): those break too rather than widen the log.
      meta: { className: "whitespace-normal min-w-40 xl:min-w-48 [overflow-wrap:anywhere]" },
      cell: ({ row }) => {
        const reason = denialReason(t, row.original);
        return (
          <span className="grid gap-0.5">
            <span>{summaryText(t, row.original)}</span>
            {reason && (
              <span className="text-xs font-medium text-red-800 dark:text-red-300" data-testid="denial-reason">
                {t("deniedBecause", { reason })}
              </span>
            )}
          </span>
        );
      },
    },
  ];
}
