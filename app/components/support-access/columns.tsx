import type { ColumnDef } from "@tanstack/react-table";
import type { TFunction } from "i18next";
import { dateColumn } from "~/components/data-table/date-column";
import { deleteColumn } from "~/components/data-table/delete-column";
import { Badge } from "~/components/ui/badge";
import type { SupportGrantRow } from "~/services/support-access.server";

/** Columns of /supportAccess. Revoking asks first; an ended grant has no button. */
export function supportGrantColumns(t: TFunction, o: { zone: string; revoke: boolean }): ColumnDef<SupportGrantRow>[] {
  const cols: ColumnDef<SupportGrantRow>[] = [
    { id: "grantee", accessorKey: "grantee", header: t("col.grantee") },
    { id: "reason", accessorKey: "reason", header: t("col.reason"), meta: { className: "whitespace-normal min-w-48" } },
    { id: "grantedBy", accessorKey: "grantedBy", header: t("col.grantedBy") },
    {
      id: "staff",
      header: t("col.staff"),
      meta: { className: "whitespace-normal min-w-40" },
      cell: ({ row }) => (row.original.staff.length ? row.original.staff.join(", ") : <span className="text-muted-foreground">{t("anyStaff")}</span>),
    },
    dateColumn<SupportGrantRow>({ id: "startsAt", header: t("col.from"), value: (r) => r.startsAt, timeZone: o.zone }),
    dateColumn<SupportGrantRow>({ id: "expiresAt", header: t("col.until"), value: (r) => r.revokedAt ?? r.expiresAt, timeZone: o.zone }),
    {
      id: "status",
      header: t("col.status"),
      cell: ({ row }) => <Badge variant={row.original.status === "active" ? "success" : "secondary"}>{t(`state.${row.original.status}`)}</Badge>,
    },
  ];
  if (o.revoke)
    cols.push(
      deleteColumn<SupportGrantRow>(
        t,
        (r) => ({ name: r.grantee }),
        { header: "revoke", label: "revokeGrant", title: "revokeTitle", description: "revokeDescription", confirm: "revoke" },
        (r) => r.status !== "active",
      ),
    );
  return cols;
}
