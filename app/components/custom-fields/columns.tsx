import type { ColumnDef } from "@tanstack/react-table";
import type { TFunction } from "i18next";
import { dateColumn } from "~/components/data-table/date-column";
import { deleteColumn } from "~/components/data-table/delete-column";
import { openColumn } from "~/components/data-table/open-column";
import { icon } from "~/components/ui/icons";
import { LinkButton } from "~/components/ui/link-button";
import type { CustomFieldRow } from "~/services/custom-fields.server";

const FieldIcon = icon(<path d="M4 6h16M4 12h10M4 18h7M17 15l3 3-3 3" />);

/** Columns of /customFields; sortable ids match `CUSTOM_FIELD_SORTS`. */
export function customFieldColumns(t: TFunction, opts: { canModify: boolean; canDelete: boolean; timeZone: string }): ColumnDef<CustomFieldRow>[] {
  const href = (r: CustomFieldRow) => `/modifyCustomField?id=${r.id}`;
  const cols: ColumnDef<CustomFieldRow>[] = [
    openColumn<CustomFieldRow>({ header: t("col.label"), icon: <FieldIcon className="size-4" />, href, label: (r) => t("open", { name: r.label }) }),
    {
      id: "label",
      accessorKey: "label",
      enableSorting: true,
      header: t("col.label"),
      cell: ({ row }) =>
        opts.canModify ? (
          <LinkButton variant="link" size="inline" to={href(row.original)}>
            {row.original.label}
          </LinkButton>
        ) : (
          row.original.label
        ),
    },
    { id: "key", accessorKey: "key", enableSorting: true, header: t("col.key"), cell: ({ row }) => <code className="text-xs">{row.original.key}</code> },
    {
      id: "type",
      accessorKey: "type",
      enableSorting: true,
      header: t("col.type"),
      cell: ({ row }) => (row.original.type === "choice" ? `${t("type.choice")} (${row.original.choices.length})` : t(`type.${row.original.type}`)),
    },
    { id: "required", header: t("col.required"), cell: ({ row }) => (row.original.required ? t("yes") : t("no")) },
    { id: "showInList", header: t("col.showInList"), cell: ({ row }) => (row.original.showInList ? t("yes") : t("no")) },
    { id: "position", accessorKey: "position", enableSorting: true, header: t("col.position"), meta: { className: "text-right" } },
    { id: "values", accessorKey: "values", enableSorting: true, header: t("col.values"), meta: { className: "text-right" } },
    dateColumn<CustomFieldRow>({ id: "updatedAt", header: t("col.updatedAt"), value: (r) => r.updatedAt, timeZone: opts.timeZone, sortable: true }),
  ];
  if (opts.canDelete)
    cols.push(
      deleteColumn<CustomFieldRow>(t, (r) => ({ name: r.label }), {
        header: "delete",
        label: "deleteLabel",
        title: "deleteTitle",
        description: "deleteDescription",
        confirm: "delete",
      }),
    );
  return cols;
}
