import type { ColumnDef } from "@tanstack/react-table";
import { LinkButton } from "~/components/ui/link-button";
import type { TFunction } from "i18next";
import { deleteColumn } from "~/components/data-table/delete-column";
import { CheckCircleIcon, XIcon } from "~/components/ui/icons";
import type { RoleRow } from "~/services/roles.server";

const Flag = ({ on, t }: { on: boolean; t: TFunction }) =>
  on ? <CheckCircleIcon className="size-4 text-primary" aria-label={t("yes")} role="img" /> : <XIcon className="size-4 text-muted-foreground" aria-label={t("no")} role="img" />;

/** Columns of /role (spec part 2 §2): permission icons; Edit and Delete only with those rights. */
export function roleColumns(t: TFunction, opts: { canModify: boolean; canDelete: boolean }): ColumnDef<RoleRow>[] {
  const cols: ColumnDef<RoleRow>[] = [
    { id: "title", accessorKey: "title", header: t("col.role"), meta: { className: "whitespace-normal min-w-28" } },
    { id: "create", header: t("col.create"), cell: ({ row }) => <Flag on={row.original.permissionAll || row.original.permissionAdd} t={t} /> },
    { id: "modify", header: t("col.modify"), cell: ({ row }) => <Flag on={row.original.permissionAll || row.original.permissionModify} t={t} /> },
    { id: "delete", header: t("col.delete"), cell: ({ row }) => <Flag on={row.original.permissionAll || row.original.permissionDelete} t={t} /> },
    { id: "view", header: t("col.view"), cell: ({ row }) => <Flag on={row.original.permissionAll || row.original.permissionView} t={t} /> },
    {
      id: "modules",
      header: t("col.modules"),
      // The module list wraps: on one line it made the table scroll even at 1440 px.
      meta: { className: "whitespace-normal min-w-48" },
      cell: ({ row }) => <span className="text-xs text-muted-foreground">{row.original.modules.map((m) => t(`module.${m}`)).join(", ")}</span>,
    },
    { id: "users", accessorKey: "users", header: t("col.users"), meta: { className: "text-right" } },
  ];
  if (opts.canModify) {
    cols.push({
      id: "edit",
      header: () => <span className="sr-only">{t("col.edit")}</span>,
      cell: ({ row }) => (
        <LinkButton variant="link" size="inline" to={`/modifyRole?id=${row.original.id}`} aria-label={t("edit", { name: row.original.title })}>
          {t("col.edit")}
        </LinkButton>
      ),
    });
  }
  if (opts.canDelete) {
    cols.push(deleteColumn<RoleRow>(t, (r) => ({ name: r.title }), { label: "deleteRole", title: "deleteTitle", description: "deleteDescription", confirm: "delete" }));
  }
  return cols;
}
