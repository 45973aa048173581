import type { ColumnDef } from "@tanstack/react-table";
import type { TFunction } from "i18next";
import { dateColumn } from "~/components/data-table/date-column";
import { deleteColumn } from "~/components/data-table/delete-column";
import { Badge } from "~/components/ui/badge";
import type { ApiKeyRow } from "~/services/api-keys.server";

/** A key as the list shows it: its row and whether it still works at the page's instant. */
export type ApiKeyListRow = ApiKeyRow & { status: "active" | "revoked" | "expired" };

/** Columns of /apiKeys; sortable ids match `API_KEY_SORTS`. Revoking asks first; a revoked or expired key has no button. */
export function apiKeyColumns(t: TFunction, o: { zone: string; revoke: boolean }): ColumnDef<ApiKeyListRow>[] {
  const cols: ColumnDef<ApiKeyListRow>[] = [
    { id: "name", accessorKey: "name", header: t("name"), enableSorting: true },
    { id: "prefix", header: t("prefix"), cell: ({ row }) => <span className="font-mono">{`kla_${row.original.prefix}_…`}</span> },
    {
      id: "rights",
      header: t("rights"),
      cell: ({ row }) => {
        const r = row.original;
        const actions = [t("view"), ...(r.canAdd ? [t("canAdd")] : []), ...(r.canModify ? [t("canModify")] : []), ...(r.canDelete ? [t("canDelete")] : [])];
        return `${r.modules.map((m) => t(`roles:module.${m}`, { defaultValue: m })).join(", ")} (${actions.join(", ")})`;
      },
    },
    { id: "createdBy", accessorKey: "createdBy", header: t("createdBy") },
    dateColumn<ApiKeyListRow>({ id: "createdAt", header: t("createdAt"), value: (r) => r.createdAt, timeZone: o.zone, sortable: true }),
    dateColumn<ApiKeyListRow>({ id: "expiresAt", header: t("expiresAt"), value: (r) => r.expiresAt, timeZone: o.zone, sortable: true }),
    dateColumn<ApiKeyListRow>({ id: "lastUsedAt", header: t("lastUsedAt"), value: (r) => r.lastUsedAt, timeZone: o.zone, sortable: true }),
    {
      id: "status",
      header: t("status"),
      cell: ({ row }) => <Badge variant={row.original.status === "active" ? "success" : "secondary"}>{t(`state.${row.original.status}`)}</Badge>,
    },
  ];
  if (o.revoke)
    cols.push(
      deleteColumn<ApiKeyListRow>(
        t,
        (r) => ({ name: r.name }),
        { header: "revoke", label: "revokeKey", title: "revokeTitle", description: "revokeDescription", confirm: "revoke" },
        (r) => r.status !== "active",
      ),
    );
  return cols;
}
