import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData, useNavigate } from "@remix-run/react";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { ListPage } from "~/components/data-table/list-page";
import { tablePage } from "~/components/data-table/params";
import { deviceTypeColumns } from "~/components/device-types/columns";
import { deleteDeviceType, DEVICE_TYPE_SORTS, listDeviceTypes } from "~/services/device-types.server";
import { requireModule } from "~/utils/auth-guards.server";
import { getDb, nowMs } from "~/utils/db.server";
import { can } from "~/utils/permissions";
import { rowAction, rowSchema } from "~/utils/row-action.server";

export const meta: MetaFunction = () => [{ title: "Device Type" }];

const MODULES = ["deviceType", "company"] as const;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireModule(request, context, MODULES);
  const page = await tablePage(request.url, { defaultSort: "code", sortable: Object.keys(DEVICE_TYPE_SORTS) }, (_, slice) => listDeviceTypes(getDb(context), auth, slice));
  const root = auth.company.type === "root";
  return {
    ...page,
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
  const columns = useMemo(() => deviceTypeColumns(t, can), [t, can]);
  return (
    <ListPage
      title={t("title")}
      add={can.add && { to: "/addDeviceType", label: t("add") }}
      columns={columns}
      page={{ rows, total, params }}
      onRowClick={can.modify ? (r) => navigate(`/modifyDeviceType?id=${r.id}`) : undefined}
      empty={t("empty")}
    />
  );
}
