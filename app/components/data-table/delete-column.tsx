import type { ColumnDef } from "@tanstack/react-table";
import type { TFunction } from "i18next";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { Button } from "~/components/ui/button";
import { TrashIcon } from "~/components/users/icons";

/** The page namespace's keys for the delete cell's texts; most lists use these. */
const DELETE_KEYS = { header: "col.delete", label: "delete.label", title: "delete.title", description: "delete.description", confirm: "delete.confirm" };

/**
 * The grids' delete cell: a trash button that asks for confirmation, then posts
 * `{intent: "delete", id}` to the page's action. Its texts are `keys` in the page's namespace
 * (`t`), filled with `names(row)` (the row's name, code…); cancel is the namespace's `cancel`.
 */
export function deleteColumn<T extends { id: number | string }>(
  t: TFunction,
  names: (row: T) => Record<string, string>,
  keys: Partial<typeof DELETE_KEYS> = {},
  /** Rows that get no button (one's own account); the server refuses them anyway. */
  keep?: (row: T) => boolean,
): ColumnDef<T> {
  const k = { ...DELETE_KEYS, ...keys };
  return {
    id: "delete",
    header: () => <span className="sr-only">{t(k.header)}</span>,
    meta: { className: "w-12" },
    cell: ({ row }) =>
      keep?.(row.original) ? null : (
        <ConfirmDialog
          trigger={
            <Button variant="ghost" size="icon-sm" aria-label={t(k.label, names(row.original))}>
              <TrashIcon />
            </Button>
          }
          title={t(k.title)}
          description={t(k.description, names(row.original))}
          fields={{ intent: "delete", id: row.original.id }}
          confirmLabel={t(k.confirm)}
          cancelLabel={t("cancel")}
          destructive
        />
      ),
  };
}
