import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData, useNavigate } from "@remix-run/react";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { cellColumns } from "~/components/cells/columns";
import { ListPage } from "~/components/data-table/list-page";
import { tablePage } from "~/components/data-table/params";
import { assertPlatformAdmin, CELL_SORTS, deleteCell, listCells } from "~/services/cells.server";
import { requireModule } from "~/utils/auth-guards.server";
import { getDb, nowMs } from "~/utils/db.server";
import { can } from "~/utils/permissions";
import { rowAction } from "~/utils/row-action.server";

export const meta: MetaFunction = () => [{ title: "Cells" }];

/** Gateway cells (docs/decisions/0065-cells-managed-in-the-console.md): the platform administrator's list. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireModule(request, context, "company");
  assertPlatformAdmin(auth, "view");
  const page = await tablePage(request.url, { defaultSort: "name", sortable: Object.keys(CELL_SORTS) }, (_, slice) => listCells(getDb(context), auth, slice));
  return {
    ...page,
    rows: page.rows.map((r) => ({ ...r, id: r.name })),
    can: { add: can(auth.permissions, "company", "add"), modify: can(auth.permissions, "company", "modify"), delete: can(auth.permissions, "company", "delete") },
  };
}

const cellRowSchema = z.object({ id: z.string().trim().min(1).max(32), intent: z.string().max(40).optional() });

export async function action({ request, context }: ActionFunctionArgs) {
  const auth = await requireModule(request, context, "company", "delete");
  return rowAction(request, context, "cells", cellRowSchema, async ({ id }) => (await deleteCell(getDb(context), auth, id, nowMs())).message);
}

export default function CellsPage() {
  const { rows, total, params, can } = useLoaderData<typeof loader>();
  const { t } = useTranslation("cells");
  const navigate = useNavigate();
  const columns = useMemo(() => cellColumns(t, can), [t, can]);
  return (
    <ListPage
      title={t("title")}
      description={t("description")}
      add={can.add && { to: "/addCell", label: t("add") }}
      columns={columns}
      page={{ rows, total, params }}
      onRowClick={can.modify ? (r) => navigate(`/modifyCell?name=${encodeURIComponent(r.name)}`) : undefined}
      empty={t("empty")}
    />
  );
}
