import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { alertColumns } from "~/components/alerts/alert-columns";
import { DataTable } from "~/components/data-table/data-table";
import { parseTableParams } from "~/components/data-table/params";
import { Button } from "~/components/ui/button";
import { EmptyState } from "~/components/ui/empty-state";
import { PageHeader } from "~/components/ui/page-header";
import { getFixedT, getLanguage } from "~/i18n/i18next.server";
import { translateMessage } from "~/i18n/messages";
import { ALERT_MSG } from "~/schemas/alerts";
import { deleteAlert, listAlerts } from "~/services/alerts.server";
import { companyZone, requireModule } from "~/utils/auth-guards.server";
import { getDb, nowMs } from "~/utils/db.server";
import { ServiceError } from "~/utils/errors.server";
import { formatZonedTime } from "~/utils/format";
import { can } from "~/utils/permissions";
import { redirectWithToast } from "~/utils/toast.server";
import type { ShellData } from "~/utils/shell.server";

export const meta: MetaFunction = () => [{ title: "Alerts" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireModule(request, context, "activity");
  const db = getDb(context);
  const params = parseTableParams(new URL(request.url), { defaultSort: "name", sortable: ["name"] });
  const { rows, total } = await listAlerts(db, auth, params);
  return { rows: rows.map((r) => ({ ...r, lastRun: r.lastRunAt ? formatZonedTime(r.lastRunAt, companyZone(auth)) : null })), total, params };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const auth = await requireModule(request, context, "activity", "delete");
  const form = await request.formData();
  const url = new URL(request.url);
  const back = url.pathname + url.search;
  const t = await getFixedT(await getLanguage(request), "alerts");
  try {
    await deleteAlert(getDb(context), auth, Number(form.get("id")), nowMs());
    return redirectWithToast(back, { type: "success", message: translateMessage(t, ALERT_MSG.deleted, "alerts") }, context.cloudflare.env);
  } catch (err) {
    if (!(err instanceof ServiceError)) throw err;
    return redirectWithToast(back, { type: "error", message: translateMessage(t, err.message, "alerts") }, context.cloudflare.env);
  }
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
    <div>
      <PageHeader
        title={t("title")}
        actions={
          canAdd && (
            <Button asChild>
              <Link to="/addAlert">{t("add")}</Link>
            </Button>
          )
        }
      />
      <DataTable columns={columns} data={rows} total={total} params={params} caption={t("caption")} getRowId={(a) => String(a.id)} emptyState={<EmptyState title={t("empty")} />} />
    </div>
  );
}
