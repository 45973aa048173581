import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { DataTable } from "~/components/data-table/data-table";
import { parseTableParams } from "~/components/data-table/params";
import { deviceColumns } from "~/components/devices/device-columns";
import { EmptyState } from "~/components/ui/empty-state";
import { PageHeader } from "~/components/ui/page-header";
import { DEVICE_SORTS, listDevices } from "~/services/devices.server";
import { companyDefaultZone } from "~/services/time-zones.server";
import { requireModule } from "~/utils/auth-guards.server";
import { todayOf } from "~/services/device-stock.server";
import { getDb, nowMs } from "~/utils/db.server";

export const meta: MetaFunction = () => [{ title: "Devices" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireModule(request, context, "devices");
  const params = parseTableParams(request.url, { defaultSort: "fullName", sortable: DEVICE_SORTS });
  const db = getDb(context);
  const [{ rows, total }, zone] = await Promise.all([listDevices(db, auth, params), companyDefaultZone(db, auth.company.id)]);
  // Last activity reads as in /activity: the company's zone, labelled.
  return { rows, total, params, today: todayOf(nowMs()), tz: zone?.name ?? "UTC" };
}

export default function Devices() {
  const { rows, total, params, today, tz } = useLoaderData<typeof loader>();
  const { t } = useTranslation("devices");
  const columns = useMemo(() => deviceColumns(t, today, tz), [t, today, tz]);
  return (
    <div>
      <PageHeader title={t("title")} />
      <DataTable columns={columns} data={rows} total={total} params={params} caption={t("caption")} getRowId={(d) => String(d.id)} emptyState={<EmptyState title={t("empty")} />} />
    </div>
  );
}
