import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { DataTable } from "~/components/data-table/data-table";
import { parseTableParams } from "~/components/data-table/params";
import { deviceColumns } from "~/components/devices/device-columns";
import { DeviceFilterBar } from "~/components/devices/device-filters";
import { EmptyState } from "~/components/ui/empty-state";
import { PageHeader } from "~/components/ui/page-header";
import { parseDeviceFilters } from "~/schemas/device-filters";
import { DEVICE_SORTS, deviceFilterOptions, listDevices } from "~/services/devices.server";
import { companyDefaultZone } from "~/services/time-zones.server";
import { requireModule } from "~/utils/auth-guards.server";
import { todayOf } from "~/services/device-stock.server";
import { getDb, nowMs } from "~/utils/db.server";

export const meta: MetaFunction = () => [{ title: "Devices" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireModule(request, context, "devices");
  const url = new URL(request.url);
  const params = parseTableParams(url, { defaultSort: "fullName", sortable: DEVICE_SORTS });
  const filters = parseDeviceFilters(url.searchParams);
  const db = getDb(context);
  const now = nowMs();
  const [{ rows, total }, options, zone] = await Promise.all([
    listDevices(db, auth, { ...params, filters }, now, context.core),
    deviceFilterOptions(db, auth),
    companyDefaultZone(db, auth.company.id),
  ]);
  // Times read as in /activity: the company's zone, labelled.
  return { rows, total, params, filters, ...options, today: todayOf(now), tz: zone?.name ?? "UTC" };
}

export default function Devices() {
  const { rows, total, params, filters, groups, types, today, tz } = useLoaderData<typeof loader>();
  const { t } = useTranslation("devices");
  const columns = useMemo(() => deviceColumns(t, today, tz), [t, today, tz]);
  const filtered = Object.keys(filters).length > 0;
  return (
    <div className="grid gap-4">
      <PageHeader title={t("title")} />
      <DeviceFilterBar t={t} filters={filters} groups={groups} types={types} />
      <DataTable
        columns={columns}
        data={rows}
        total={total}
        params={params}
        caption={t("caption")}
        getRowId={(d) => String(d.id)}
        emptyState={<EmptyState title={t(filtered ? "emptyFiltered" : "empty")} />}
      />
    </div>
  );
}
