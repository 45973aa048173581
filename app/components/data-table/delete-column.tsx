import type { ColumnDef } from "@tanstack/react-table";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { Button } from "~/components/ui/button";
import { TrashIcon } from "~/components/users/icons";

/**
 * The grids' delete cell: a trash button that asks for confirmation, then posts
 * `{intent: "delete", id}` to the page's action.
 */
export function deleteColumn<T extends { id: number }>(text: {
  header: string;
  label: (row: T) => string;
  title: string;
  description: (row: T) => string;
  confirm: string;
  cancel: string;
}): ColumnDef<T> {
  return {
    id: "delete",
    header: () => <span className="sr-only">{text.header}</span>,
    meta: { className: "w-12" },
    cell: ({ row }) => (
      <ConfirmDialog
        trigger={
          <Button variant="ghost" size="icon-sm" aria-label={text.label(row.original)}>
            <TrashIcon />
          </Button>
        }
        title={text.title}
        description={text.description(row.original)}
        fields={{ intent: "delete", id: row.original.id }}
        confirmLabel={text.confirm}
        cancelLabel={text.cancel}
        destructive
      />
    ),
  };
}
