import type { ColumnDef } from "@tanstack/react-table";
import type { TFunction } from "i18next";
import { LinkButton } from "~/components/ui/link-button";
import { memoT } from "~/i18n/memo-t";
import { activityLabel, markOf, summaryText } from "./activity-text";
import { EventMark } from "./event-mark";
import type { ActivityGridRow } from "./grid-row";

/** Which records the reader may open: a name is a link only where its page would not answer 403. */
export type ActivityLinkRights = { users: boolean; devices: boolean; groups: boolean };

/**
 * Cells wrap between words only: a word longer than its column widens the column (the table then
 * scrolls inside its box) rather than breaking letter by letter, and headers never wrap.
 */
const WRAP = "whitespace-normal [overflow-wrap:break-word]";

type Named = { id: number; name: string } | null;

/** A name from the row and the page that shows it, or plain text without the right (or "-" for none). */
function NameLink({ named, to }: { named: Named; to: string | null }) {
  if (!named) return "-";
  if (!to) return named.name;
  return (
    <LinkButton to={to} variant="link" size="inline" className="font-normal whitespace-normal">
      {named.name}
    </LinkButton>
  );
}

/** The person, door and group cells (and card lines): who, where and which group, each opening its record. */
export function nameCells(rights: ActivityLinkRights) {
  return {
    triggeredBy: (r: ActivityGridRow) => (
      <NameLink
        named={r.createdByUser && { id: r.createdByUser.id, name: r.createdByUser.displayName }}
        to={rights.users && r.createdByUser ? `/modifyUser?id=${r.createdByUser.id}` : null}
      />
    ),
    user: (r: ActivityGridRow) => (
      <NameLink named={r.targetUser && { id: r.targetUser.id, name: r.targetUser.displayName }} to={rights.users && r.targetUser ? `/modifyUser?id=${r.targetUser.id}` : null} />
    ),
    device: (r: ActivityGridRow) => (
      <NameLink
        named={r.targetDevice && { id: r.targetDevice.id, name: r.targetDevice.fullName || r.targetDevice.displayName }}
        to={rights.devices && r.targetDevice ? `/deviceDetails?id=${r.targetDevice.id}` : null}
      />
    ),
    deviceGroup: (r: ActivityGridRow) => (
      <NameLink
        named={r.targetDeviceGroup && { id: r.targetDeviceGroup.id, name: r.targetDeviceGroup.fullName }}
        to={rights.groups && r.targetDeviceGroup ? `/modifyDeviceGroup?id=${r.targetDeviceGroup.id}` : null}
      />
    ),
  };
}

/** The entry's badge and its name, which opens the entry. */
export function ActivityName({ t, row }: { t: TFunction; row: ActivityGridRow }) {
  const mark = markOf(row);
  const label = activityLabel(t, row);
  return (
    <span className="inline-flex flex-wrap items-center gap-2">
      {mark && <EventMark mark={mark} label={t(`mark.${mark}`)} />}
      <LinkButton to={`/activityDetails?id=${row.id}`} variant="link" size="inline" className="whitespace-normal text-foreground" aria-label={t("openDetails", { name: label })}>
        {label}
      </LinkButton>
    </span>
  );
}

/** /activity columns; ids match ACTIVITY_SORTS. Each distinct text is translated once for the whole page. */
export function activityColumns(translate: TFunction, rights: ActivityLinkRights): ColumnDef<ActivityGridRow>[] {
  const t = memoT(translate);
  const names = nameCells(rights);
  const named = (id: keyof typeof names, accessor: (r: ActivityGridRow) => string): ColumnDef<ActivityGridRow> => ({
    id,
    header: t(`col.${id}`),
    enableSorting: true,
    meta: { className: WRAP },
    accessorFn: accessor,
    cell: ({ row }) => names[id](row.original),
  });
  return [
    { id: "date", header: t("col.date"), accessorKey: "when", enableSorting: true, meta: { className: "whitespace-normal min-w-28" } },
    {
      id: "activity",
      header: t("col.activity"),
      accessorKey: "activityName",
      enableSorting: true,
      meta: { className: WRAP },
      cell: ({ row }) => <ActivityName t={t} row={row.original} />,
    },
    // Below 1280 px the trigger stays in the filters and the details: the names need the room.
    {
      id: "trigger",
      header: t("col.trigger"),
      accessorKey: "operationType",
      enableSorting: true,
      meta: { className: "hidden xl:table-cell" },
      cell: ({ row }) => t(`op.${row.original.operationType}`),
    },
    named("triggeredBy", (r) => r.createdByUser?.displayName ?? ""),
    named("user", (r) => r.targetUser?.displayName ?? ""),
    named("device", (r) => r.targetDevice?.fullName || r.targetDevice?.displayName || ""),
    { ...named("deviceGroup", (r) => r.targetDeviceGroup?.fullName ?? ""), meta: { className: `${WRAP} hidden xl:table-cell` } },
    {
      id: "summary",
      header: t("col.summary"),
      accessorKey: "summary",
      // Summaries carry e-mail addresses and ids: such a token breaks inside the column rather than widening the table.
      meta: { className: "whitespace-normal [overflow-wrap:anywhere] min-w-40" },
      cell: ({ row }) => summaryText(t, row.original),
    },
  ];
}
