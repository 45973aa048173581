import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, useLoaderData, useNavigate, useRouteLoaderData, useSearchParams } from "@remix-run/react";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { ListPage } from "~/components/data-table/list-page";
import { tablePage } from "~/components/data-table/params";
import { groupColumns } from "~/components/device-groups/group-columns";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { LinkButton } from "~/components/ui/link-button";
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
  const hideInactive = url.searchParams.get(HIDE_INACTIVE) === "1";
  const q = searchText.parse(url.searchParams.get("q"));
  const page = await tablePage(url, { defaultSort: "fullName", sortable: GROUP_SORTS }, (params) => listDeviceGroups(getDb(context), auth, { ...params, hideInactive, q }));
  return { ...page, hideInactive, q };
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
    <ListPage
      title={t("title")}
      caption={t("caption")}
      actions={
        <div className="flex flex-wrap items-center gap-2">
          <Switch id="hide-inactive" checked={hideInactive} onCheckedChange={toggleHideInactive} />
          <Label htmlFor="hide-inactive">{t("hideInactive")}</Label>
          {/* Every group of the company, whatever the search and the switch. */}
          <LinkButton variant="outline" to="/resources/device-groups-csv" reloadDocument download="device_groups.csv">
            {t("exportCsv")}
          </LinkButton>
        </div>
      }
      add={canAdd && { to: "/addDeviceGroup", label: t("add") }}
      columns={columns}
      page={{ rows, total, params }}
      rowHref={(g) => `/modifyDeviceGroup?id=${g.id}`}
      empty={q ? t("noMatches") : t("empty")}
    >
      <Form method="get" role="search" aria-label={t("search.label")} className="flex items-end gap-2">
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
    </ListPage>
  );
}
