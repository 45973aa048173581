import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { DataTable } from "~/components/data-table/data-table";
import { parseTableParams } from "~/components/data-table/params";
import { roleColumns } from "~/components/roles/columns";
import { Button } from "~/components/ui/button";
import { EmptyState } from "~/components/ui/empty-state";
import { PageHeader } from "~/components/ui/page-header";
import { deleteRole, listRoles } from "~/services/roles.server";
import { requireModule } from "~/utils/auth-guards.server";
import { getDb, nowMs } from "~/utils/db.server";
import { can } from "~/utils/permissions";
import { rowAction, rowSchema } from "~/utils/row-action.server";

export const meta: MetaFunction = () => [{ title: "Roles" }];

/** Spec §9: the roles grid shows 6 rows per page. */
const ROLE_PAGE_SIZE = 6;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireModule(request, context, "role");
  const params = parseTableParams(request.url, { defaultSort: "title", sortable: ["title"], pageSize: ROLE_PAGE_SIZE, maxPageSize: ROLE_PAGE_SIZE });
  const all = await listRoles(getDb(context), auth);
  const sorted = params.sort.desc ? [...all].reverse() : all;
  return {
    rows: sorted.slice(params.offset, params.offset + params.pageSize),
    total: all.length,
    params,
    can: { add: can(auth.permissions, "role", "add"), modify: can(auth.permissions, "role", "modify"), delete: can(auth.permissions, "role", "delete") },
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const auth = await requireModule(request, context, "role", "delete");
  return rowAction(request, context, "roles", rowSchema, async ({ id }) => (await deleteRole(getDb(context), auth, id, nowMs())).message);
}

export default function RolesPage() {
  const { rows, total, params, can } = useLoaderData<typeof loader>();
  const { t } = useTranslation("roles");
  const columns = useMemo(() => roleColumns(t, { canModify: can.modify, canDelete: can.delete }), [t, can.modify, can.delete]);
  return (
    <div className="grid gap-4">
      <PageHeader
        title={t("title")}
        actions={
          can.add && (
            <>
              <Button asChild variant="outline">
                <Link to="/assignRole">{t("assignRole")}</Link>
              </Button>
              <Button asChild>
                <Link to="/addRole">{t("addRole")}</Link>
              </Button>
            </>
          )
        }
      />
      <DataTable columns={columns} data={rows} total={total} params={params} caption={t("title")} getRowId={(r) => String(r.id)} emptyState={<EmptyState title={t("empty")} />} />
    </div>
  );
}
