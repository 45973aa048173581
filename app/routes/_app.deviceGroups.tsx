import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useLoaderData, useNavigate, useRouteLoaderData, useSearchParams } from "@remix-run/react";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { DataTable } from "~/components/data-table/data-table";
import { parseTableParams } from "~/components/data-table/params";
import { groupColumns } from "~/components/device-groups/group-columns";
import { Button } from "~/components/ui/button";
import { EmptyState } from "~/components/ui/empty-state";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { PageHeader } from "~/components/ui/page-header";
import { Switch } from "~/components/ui/switch";
import { SEARCH_MAX, searchText } from "~/schemas/search";
import { deleteDeviceGroup, GROUP_SORTS, listDeviceGroups } from "~/services/device-groups.server";
import { requireModule } from "~/utils/auth-guards.server";
import { getDb, nowMs } from "~/utils/db.server";
import { can } from "~/utils/permissions";
import type { ShellData } from "~/utils/shell.server";
import { rowAction, rowSchema } from "~/utils/row-action.server";

export const meta: MetaFunction = () => [{ title: "Device groups" }];

const HIDE_INACTIVE = "hideInactive";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireModule(request, context, "device_group");
  const url = new URL(request.url);
  const params = parseTableParams(url, { defaultSort: "fullName", sortable: GROUP_SORTS });
  const hideInactive = url.searchParams.get(HIDE_INACTIVE) === "1";
  const q = searchText.parse(url.searchParams.get("q"));
  const { rows, total } = await listDeviceGroups(getDb(context), auth, { ...params, hideInactive, q });
  return { rows, total, params, hideInactive, q };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const auth = await requireModule(request, context, "device_group", "delete");
  return rowAction(request, context, "groups", rowSchema, async ({ id }) => {
    await deleteDeviceGroup(getDb(context), auth, id, nowMs());
    return "toast.removed";
  });
}

export default function DeviceGroups() {
  const { rows, total, params, hideInactive, q } = useLoaderData<typeof loader>();
  const shell = useRouteLoaderData<ShellData>("routes/_app");
  const { t } = useTranslation("groups");
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const permissions = shell?.permissions;
  const canAdd = !!permissions && can(permissions, "device_group", "add");
  const canDelete = !!permissions && can(permissions, "device_group", "delete");
  const columns = useMemo(() => groupColumns(t, canDelete), [t, canDelete]);

  const toggleHideInactive = (on: boolean) => {
    const next = new URLSearchParams(searchParams);
    if (on) next.set(HIDE_INACTIVE, "1");
    else next.delete(HIDE_INACTIVE);
    next.delete("page");
    navigate({ search: next.toString() ? `?${next}` : "" }, { preventScrollReset: true });
  };

  return (
    <div>
      <PageHeader
        title={t("title")}
        actions={
          <>
            <div className="flex items-center gap-2">
              <Switch id="hide-inactive" checked={hideInactive} onCheckedChange={toggleHideInactive} />
              <Label htmlFor="hide-inactive">{t("hideInactive")}</Label>
            </div>
            {canAdd && (
              <Button asChild>
                <Link to="/addDeviceGroup">{t("add")}</Link>
              </Button>
            )}
          </>
        }
      />
      <Form method="get" role="search" aria-label={t("search.label")} className="mb-4 flex items-end gap-2">
        {[HIDE_INACTIVE, "sort", "pageSize"]
          .filter((k) => searchParams.has(k))
          .map((k) => (
            <input key={k} type="hidden" name={k} value={searchParams.get(k) ?? ""} />
          ))}
        <div className="grid min-w-56 flex-1 gap-1.5 sm:max-w-sm">
          <Label htmlFor="group-q">{t("search.q")}</Label>
          <Input id="group-q" type="search" name="q" defaultValue={q} maxLength={SEARCH_MAX} placeholder={t("search.placeholder")} />
        </div>
        <Button type="submit">{t("search.submit")}</Button>
      </Form>
      <DataTable
        columns={columns}
        data={rows}
        total={total}
        params={params}
        caption={t("caption")}
        getRowId={(g) => String(g.id)}
        emptyState={<EmptyState title={q ? t("noMatches") : t("empty")} />}
      />
    </div>
  );
}
