import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useLoaderData, useNavigate, useSearchParams, useSubmit } from "@remix-run/react";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { DataTable } from "~/components/data-table/data-table";
import { parseTableParams } from "~/components/data-table/params";
import { Button } from "~/components/ui/button";
import { EmptyState } from "~/components/ui/empty-state";
import { Label } from "~/components/ui/label";
import { PageHeader } from "~/components/ui/page-header";
import { Switch } from "~/components/ui/switch";
import { userColumns } from "~/components/users/columns";
import { companyToday } from "~/services/ekeys.server";
import { deleteUser, listUsers, USER_SORTS } from "~/services/users.server";
import { requireModule } from "~/utils/auth-guards.server";
import { getDb, nowMs } from "~/utils/db.server";
import { can } from "~/utils/permissions";
import { rowAction, rowSchema } from "~/utils/row-action.server";

export const meta: MetaFunction = () => [{ title: "Users" }];

/** 'Hide inactive' is on unless the URL says `hideInactive=0`. */
const hidesInactive = (url: URL) => url.searchParams.get("hideInactive") !== "0";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireModule(request, context, "users");
  const db = getDb(context);
  const url = new URL(request.url);
  const params = parseTableParams(url, { defaultSort: "displayName", sortable: Object.keys(USER_SORTS) });
  const hideInactive = hidesInactive(url);
  const [{ rows, total }, { zone }] = await Promise.all([
    listUsers(db, auth, { includeInactive: !hideInactive, sort: params.sort, page: { offset: params.offset, limit: params.pageSize } }),
    companyToday(db, auth, context.core, nowMs()),
  ]);
  return {
    rows,
    total,
    params,
    hideInactive,
    timeZone: zone?.name ?? "UTC",
    canAdd: can(auth.permissions, "users", "add"),
    canDelete: can(auth.permissions, "users", "delete"),
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const auth = await requireModule(request, context, "users", "delete");
  return rowAction(request, context, "users", rowSchema, async ({ id }) => (await deleteUser(getDb(context), auth, id, nowMs())).message);
}

export default function UsersPage() {
  const { rows, total, params, hideInactive, timeZone, canAdd, canDelete } = useLoaderData<typeof loader>();
  const { t } = useTranslation("users");
  const navigate = useNavigate();
  const submit = useSubmit();
  const [searchParams] = useSearchParams();
  const columns = useMemo(() => userColumns(t, { canDelete, timeZone }), [t, canDelete, timeZone]);

  const toggleInactive = (hide: boolean) => {
    const next = new URLSearchParams(searchParams);
    next.delete("page");
    if (hide) next.delete("hideInactive");
    else next.set("hideInactive", "0");
    submit(next, { method: "get", preventScrollReset: true });
  };

  return (
    <div className="grid gap-4">
      <PageHeader
        title={t("title")}
        actions={
          canAdd && (
            <Button asChild>
              <Link to="/addUser">{t("addUser")}</Link>
            </Button>
          )
        }
      />
      <Form method="get" className="flex items-center gap-2">
        <Switch id="hideInactive" checked={hideInactive} onCheckedChange={toggleInactive} />
        <Label htmlFor="hideInactive">{t("hideInactive")}</Label>
      </Form>
      <DataTable
        columns={columns}
        data={rows}
        total={total}
        params={params}
        caption={t("title")}
        getRowId={(u) => String(u.id)}
        onRowClick={(u) => navigate(`/modifyUser?id=${u.id}`)}
        emptyState={<EmptyState title={t("empty")} />}
      />
    </div>
  );
}
