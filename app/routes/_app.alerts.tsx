import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { alertColumns } from "~/components/alerts/alert-columns";
import { ListPage } from "~/components/data-table/list-page";
import { tablePage } from "~/components/data-table/params";
import { ALERT_MSG } from "~/schemas/alerts";
import { deleteAlert, listAlerts } from "~/services/alerts.server";
import { companyZone, requireModule } from "~/utils/auth-guards.server";
import { getDb, nowMs } from "~/utils/db.server";
import { rowAction, rowSchema } from "~/utils/row-action.server";
import { formatZonedTime } from "~/utils/format";
import { getLanguage } from "~/i18n/i18next.server";
import { can } from "~/utils/permissions";
import type { ShellData } from "~/utils/shell.server";

export const meta: MetaFunction = () => [{ title: "Alerts" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireModule(request, context, "activity");
  const db = getDb(context);
  const page = await tablePage(request.url, { defaultSort: "name", sortable: ["name"] }, (params) => listAlerts(db, auth, params));
  const language = await getLanguage(request);
  return { ...page, rows: page.rows.map((r) => ({ ...r, lastRun: r.lastRunAt ? formatZonedTime(r.lastRunAt, companyZone(auth), language) : null })) };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const auth = await requireModule(request, context, "activity", "delete");
  return rowAction(request, context, "alerts", rowSchema, async ({ id }) => {
    await deleteAlert(getDb(context), auth, id, nowMs());
    return ALERT_MSG.deleted;
  });
}

export default function Alerts() {
  const { rows, total, params } = useLoaderData<typeof loader>();
  const shell = useRouteLoaderData<ShellData>("routes/_app");
  const { t } = useTranslation("alerts");
  const permissions = shell?.permissions;
  const canAdd = !!permissions && can(permissions, "activity", "add");
  const canDelete = !!permissions && can(permissions, "activity", "delete");
  const columns = useMemo(() => alertColumns(t, canDelete), [t, canDelete]);
  return (
    <ListPage title={t("title")} caption={t("caption")} add={canAdd && { to: "/addAlert", label: t("add") }} columns={columns} page={{ rows, total, params }} empty={t("empty")} />
  );
}
