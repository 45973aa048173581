import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { ListPage } from "~/components/data-table/list-page";
import { tablePage } from "~/components/data-table/params";
import { roleColumns } from "~/components/roles/columns";
import { LinkButton } from "~/components/ui/link-button";
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
  const page = await tablePage(request.url, { defaultSort: "title", sortable: ["title"], pageSize: ROLE_PAGE_SIZE, maxPageSize: ROLE_PAGE_SIZE }, async (params) => {
    const all = await listRoles(getDb(context), auth);
    const sorted = params.sort.desc ? [...all].reverse() : all;
    return { rows: sorted.slice(params.offset, params.offset + params.pageSize), total: all.length };
  });
  return {
    ...page,
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
    <ListPage
      title={t("title")}
      actions={
        can.add && (
          <LinkButton to="/assignRole" variant="outline">
            {t("assignRole")}
          </LinkButton>
        )
      }
      add={can.add && { to: "/addRole", label: t("addRole") }}
      columns={columns}
      page={{ rows, total, params }}
      empty={t("empty")}
    />
  );
}
