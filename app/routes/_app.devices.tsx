import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { data } from "@remix-run/cloudflare";
import { useActionData, useLoaderData } from "@remix-run/react";
import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { ListPage } from "~/components/data-table/list-page";
import { tablePage } from "~/components/data-table/params";
import { selectColumn } from "~/components/data-table/select-column";
import { DeviceBulkBar } from "~/components/devices/device-bulk-bar";
import { DeviceBulkResults } from "~/components/devices/device-bulk-results";
import { deviceColumns, type DeviceListRow } from "~/components/devices/device-columns";
import { DeviceFilterBar } from "~/components/devices/device-filters";
import { LinkButton } from "~/components/ui/link-button";
import { addDevicesToGroupSchema, type BulkRowResult } from "~/schemas/bulk";
import { parseDeviceFilters } from "~/schemas/device-filters";
import { addDevicesToGroup } from "~/services/device-groups.server";
import { DEVICE_SORTS, deviceFilterOptions, listDevices } from "~/services/devices.server";
import { companyZone, requireModule } from "~/utils/auth-guards.server";
import { todayOf } from "~/utils/today";
import { getDb, nowMs } from "~/utils/db.server";
import { formAction } from "~/utils/form-action.server";
import { can } from "~/utils/permissions";

export const meta: MetaFunction = () => [{ title: "Devices" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireModule(request, context, "devices");
  const url = new URL(request.url);
  const filters = parseDeviceFilters(url.searchParams);
  const db = getDb(context);
  const now = nowMs();
  const [page, options] = await Promise.all([
    tablePage(url, { defaultSort: "fullName", sortable: DEVICE_SORTS }, (params) => listDevices(db, auth, { ...params, filters }, now, context.core)),
    deviceFilterOptions(db, auth),
  ]);
  // Times read as in /activity: the company's zone, labelled.
  const canBulk = can(auth.permissions, "device_group", "modify");
  const tz = companyZone(auth);
  return { ...page, filters, ...options, canBulk, today: todayOf(now, tz), tz };
}

/** Adds the selected devices to a group (decision 0035); the service checks the group right itself. */
export async function action({ request, context }: ActionFunctionArgs) {
  const auth = await requireModule(request, context, "devices");
  const db = getDb(context);
  return formAction(request, addDevicesToGroupSchema, async (v, submission) => {
    const rows = await addDevicesToGroup(db, auth, v, nowMs());
    return data({ result: submission.reply({ resetForm: true }), bulk: { groupId: v.groupId, rows } });
  });
}

export default function Devices() {
  const { rows, total, params, filters, groups, types, canBulk, today, tz } = useLoaderData<typeof loader>();
  const actionData = useActionData<{ bulk?: { groupId: number; rows: BulkRowResult[] } }>();
  const { t, i18n } = useTranslation("devices");
  const [selected, setSelected] = useState<Set<number>>(() => new Set());
  // A finished bulk action clears the selection; its results stay on screen.
  useEffect(() => {
    if (actionData?.bulk) setSelected(new Set());
  }, [actionData]);
  const columns = useMemo(() => {
    const cols = deviceColumns(t, today, tz, i18n.language);
    if (!canBulk) return cols;
    const select = selectColumn<DeviceListRow>({
      selected,
      onChange: setSelected,
      idOf: (d) => d.id,
      rowLabel: (d) => t("bulk.selectRow", { name: d.fullName || d.serialNumber }),
      pageLabel: t("bulk.selectPage"),
    });
    return [select, ...cols];
  }, [t, i18n.language, today, tz, canBulk, selected]);
  const bulkGroup = actionData?.bulk && groups.find((g) => g.id === actionData.bulk!.groupId);
  // A deactivated group takes no devices (decision 0040), so the bulk bar offers the active ones; the
  // filter keeps every group, marked, to find the devices a deactivated group still holds.
  const filterGroups = useMemo(() => groups.map((g) => ({ id: g.id, name: g.active ? g.name : t("filter.inactiveGroup", { name: g.name }) })), [groups, t]);
  const activeGroups = useMemo(() => groups.filter((g) => g.active), [groups]);
  const filtered = Object.keys(filters).length > 0;
  // The export takes the list's search and filters (not its sort or page): the devices the list shows, every page.
  const exportQuery = new URLSearchParams(Object.entries(filters).map(([k, v]) => [k, String(v)])).toString();
  return (
    <ListPage
      title={t("title")}
      caption={t("caption")}
      actions={
        <LinkButton variant="outline" to={`/resources/devices-csv${exportQuery ? `?${exportQuery}` : ""}`} reloadDocument download="devices.csv">
          {t("exportCsv")}
        </LinkButton>
      }
      columns={columns}
      page={{ rows, total, params }}
      rowHref={(d) => `/deviceDetails?id=${d.id}`}
      empty={t(filtered ? "emptyFiltered" : "empty")}
    >
      <DeviceFilterBar t={t} filters={filters} groups={filterGroups} types={types} />
      {selected.size > 0 && <DeviceBulkBar ids={[...selected]} groups={activeGroups} onClear={() => setSelected(new Set())} />}
      {actionData?.bulk && bulkGroup && <DeviceBulkResults group={bulkGroup} rows={actionData.bulk.rows} />}
    </ListPage>
  );
}
