import type { ColumnDef } from "@tanstack/react-table";
import type { TFunction } from "i18next";
import { EmailLink } from "~/components/data-table/email-link";
import { shortHeader } from "~/components/data-table/short-header";
import { deleteColumn } from "~/components/data-table/delete-column";
import { openColumn } from "~/components/data-table/open-column";
import { LinkButton } from "~/components/ui/link-button";
import { Badge } from "~/components/ui/badge";
import { CheckIcon } from "~/components/ui/icons";
import type { UserListRow } from "~/services/users.server";
import { ZonedTime } from "~/components/ui/zoned-time";
import { formatCalendarDate, formatPhone } from "~/utils/format";
import { UserIcon } from "./icons";

const Flag = ({ on, t }: { on: boolean; t: TFunction }) => (on ? <CheckIcon className="size-4 text-primary" aria-label={t("yes")} /> : <span className="sr-only">{t("no")}</span>);

/**
 * Flag headers wrap between words: five long headers over narrow yes/no cells made the table scroll at 1440 px.
 * Below 1280 px the four privilege flags are one "Privileges" column of badges, one per flag set (decision 0038).
 */
const FLAG = { className: "whitespace-normal hidden xl:table-cell" };

const PRIVILEGES = [
  ["isSoInterrupt", "col.soInterrupt"],
  ["isInstaller", "col.installer"],
  ["isSentinel", "col.sentinel"],
  ["isSuperAdmin", "col.superAdmin"],
] as const satisfies readonly (readonly [keyof UserListRow, string])[];

/** Columns of /users (docs/ARCHITECTURE.md §7.1); sortable ids match `USER_SORTS`. */
export function userColumns(
  t: TFunction,
  opts: { canDelete: boolean; timeZone: string; selfId: number; language: string; customFields?: { key: string; label: string; type: string }[] },
): ColumnDef<UserListRow>[] {
  const cols: ColumnDef<UserListRow>[] = [
    {
      ...openColumn<UserListRow>({ header: t("col.details"), icon: <UserIcon />, href: (u) => `/modifyUser?id=${u.id}`, label: (u) => t("openUser", { name: u.displayName }) }),
      id: "details",
    },
    { id: "displayName", accessorKey: "displayName", header: t("col.displayName"), enableSorting: true, meta: { className: "min-w-32 whitespace-normal" } },
    {
      id: "email",
      accessorKey: "email",
      header: t("col.email"),
      enableSorting: true,
      meta: { className: "whitespace-normal" },
      cell: ({ row }) => {
        const { email } = row.original;
        const phone = formatPhone(row.original.countryCode, row.original.phoneNumber);
        return (
          <span className="flex flex-col">
            <EmailLink email={email} />
            {phone && (
              <span className="text-xs whitespace-nowrap text-muted-foreground 2xl:hidden">
                <span className="sr-only">{t("col.phone")}: </span>
                {phone}
              </span>
            )}
          </span>
        );
      },
    },
    {
      id: "phone",
      accessorKey: "phoneNumber",
      header: t("col.phone"),
      enableSorting: true,
      // From 1536 px; below, the phone is the second line of the e-mail cell.
      meta: { className: "whitespace-nowrap hidden 2xl:table-cell" },
      cell: ({ row }) => formatPhone(row.original.countryCode, row.original.phoneNumber),
    },
    {
      id: "privileges",
      header: t("col.privileges"),
      meta: { className: "whitespace-normal min-w-28 xl:hidden" },
      cell: ({ row }) => {
        const set = PRIVILEGES.filter(([flag]) => row.original[flag]);
        if (set.length === 0) return "-";
        return (
          <ul className="flex flex-wrap gap-1">
            {set.map(([flag, label]) => (
              <li key={flag}>
                <Badge variant="secondary" className="whitespace-normal">
                  {t(label)}
                </Badge>
              </li>
            ))}
          </ul>
        );
      },
    },
    {
      id: "isSOInterrupt",
      accessorKey: "isSoInterrupt",
      header: t("col.soInterrupt"),
      enableSorting: true,
      meta: FLAG,
      cell: ({ row }) => <Flag on={row.original.isSoInterrupt} t={t} />,
    },
    { id: "isInstaller", accessorKey: "isInstaller", header: t("col.installer"), enableSorting: true, meta: FLAG, cell: ({ row }) => <Flag on={row.original.isInstaller} t={t} /> },
    { id: "isSentinel", accessorKey: "isSentinel", header: t("col.sentinel"), enableSorting: true, meta: FLAG, cell: ({ row }) => <Flag on={row.original.isSentinel} t={t} /> },
    {
      id: "isSuperAdmin",
      accessorKey: "isSuperAdmin",
      header: shortHeader(t("col.superAdminShort"), t("col.superAdmin")),
      enableSorting: true,
      meta: FLAG,
      cell: ({ row }) => <Flag on={row.original.isSuperAdmin} t={t} />,
    },
    {
      id: "active",
      accessorKey: "isInactive",
      header: t("col.active"),
      enableSorting: true,
      meta: { className: "whitespace-normal" },
      cell: ({ row }) => <Flag on={!row.original.isInactive} t={t} />,
    },
    {
      id: "lastActivity",
      accessorKey: "lastActivityAt",
      header: t("col.lastActivity"),
      enableSorting: true,
      meta: { className: "whitespace-normal" },
      cell: ({ row }) =>
        row.original.lastActivityAt ? (
          <LinkButton to={`/activity?id=${row.original.id}&type=Triggered+By`} variant="link" size="inline">
            <ZonedTime value={row.original.lastActivityAt} timeZone={opts.timeZone} />
          </LinkButton>
        ) : (
          "-"
        ),
    },
    // The custom fields chosen for the list (decision 0095), after the built-in columns; a date is a calendar
    // day (no zone), written in the reader's order as every day of the console is (decision 0067).
    ...(opts.customFields ?? []).map((f): ColumnDef<UserListRow> => ({
      id: `cf_${f.key}`,
      header: f.label,
      meta: { className: "whitespace-normal" },
      cell: ({ row }) => {
        const value = row.original.customFields[f.key] ?? "";
        return f.type === "date" ? formatCalendarDate(value, opts.language) : value;
      },
    })),
  ];
  if (opts.canDelete)
    cols.push(
      deleteColumn<UserListRow>(
        t,
        (u) => ({ name: u.displayName }),
        { label: "deleteUser", title: "deleteTitle", description: "deleteDescription", confirm: "delete" },
        (u) => u.id === opts.selfId,
      ),
    );
  return cols;
}
