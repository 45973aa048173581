import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData, useNavigate } from "@remix-run/react";
import type { ColumnDef } from "@tanstack/react-table";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { DataTable } from "~/components/data-table/data-table";
import { NAV_ICONS } from "~/components/shell/nav-icons";
import { deleteColumn } from "~/components/data-table/delete-column";
import { parseTableParams } from "~/components/data-table/params";
import { Button } from "~/components/ui/button";
import { EmptyState } from "~/components/ui/empty-state";
import { PageHeader } from "~/components/ui/page-header";
import { deleteDeviceType, DEVICE_TYPE_SORTS, listDeviceTypes, type DeviceTypeRow } from "~/services/device-types.server";
import { requireModule } from "~/utils/auth-guards.server";
import { getDb, nowMs } from "~/utils/db.server";
import { formatZonedTime } from "~/utils/format";
import { can } from "~/utils/permissions";
import { rowAction, rowSchema } from "~/utils/row-action.server";

export const meta: MetaFunction = () => [{ title: "Device Type" }];

const MODULES = ["deviceType", "company"] as const;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireModule(request, context, MODULES);
  const params = parseTableParams(request.url, { defaultSort: "code", sortable: Object.keys(DEVICE_TYPE_SORTS) });
  const { rows, total } = await listDeviceTypes(getDb(context), auth, { sort: params.sort, page: { offset: params.offset, limit: params.pageSize } });
  const root = auth.company.type === "root";
  return {
    rows,
    total,
    params,
    can: { add: root && can(auth.permissions, MODULES, "add"), modify: root && can(auth.permissions, MODULES, "modify"), delete: root && can(auth.permissions, MODULES, "delete") },
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const auth = await requireModule(request, context, MODULES, "delete");
  return rowAction(request, context, "deviceTypes", rowSchema, async ({ id }) => (await deleteDeviceType(getDb(context), auth, id, nowMs())).message);
}

export default function DeviceTypesPage() {
  const { rows, total, params, can } = useLoaderData<typeof loader>();
  const { t } = useTranslation("deviceTypes");
  const navigate = useNavigate();
  const columns = useMemo(() => {
    const cols: ColumnDef<DeviceTypeRow>[] = [
      {
        id: "icon",
        header: () => <span className="sr-only">{t("open")}</span>,
        meta: { className: "w-10" },
        cell: ({ row }) =>
          can.modify ? (
            <Link
              to={`/modifyDeviceType?id=${row.original.id}`}
              className="text-muted-foreground hover:text-foreground"
              aria-label={t("openType", { name: row.original.deviceType })}
            >
              <NAV_ICONS.deviceType className="size-5" />
            </Link>
          ) : null,
      },
      { id: "code", accessorKey: "deviceCode", header: t("deviceCode"), enableSorting: true, meta: { className: "font-mono" } },
      { id: "type", accessorKey: "deviceType", header: t("deviceType"), enableSorting: true },
      { id: "devices", accessorKey: "devices", header: t("devices"), enableSorting: true, meta: { className: "text-right" } },
      { id: "createdAt", header: t("createdAt"), enableSorting: true, cell: ({ row }) => formatZonedTime(row.original.createdAt, "UTC") },
    ];
    if (can.delete)
      cols.push(
        deleteColumn<DeviceTypeRow>({
          header: t("delete"),
          label: (r) => t("deleteType", { name: r.deviceType }),
          title: t("deleteTitle"),
          description: (r) => t("deleteDescription", { name: r.deviceType, code: r.deviceCode }),
          confirm: t("delete"),
          cancel: t("cancel"),
        }),
      );
    return cols;
  }, [t, can.modify, can.delete]);
  return (
    <div className="grid gap-4">
      <PageHeader
        title={t("title")}
        actions={
          can.add && (
            <Button asChild>
              <Link to="/addDeviceType">{t("add")}</Link>
            </Button>
          )
        }
      />
      <DataTable
        columns={columns}
        data={rows}
        total={total}
        params={params}
        caption={t("title")}
        getRowId={(r) => String(r.id)}
        onRowClick={can.modify ? (r) => navigate(`/modifyDeviceType?id=${r.id}`) : undefined}
        emptyState={<EmptyState title={t("empty")} />}
      />
    </div>
  );
}
