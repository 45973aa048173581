import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { addDevicesForm, saveGroupForm } from "~/routes/device-group-form-action.server";
import { DevicePicker } from "~/components/device-groups/device-picker";
import { GroupForm } from "~/components/device-groups/group-form";
import { DeviceBulkResults } from "~/components/devices/device-bulk-results";
import { PageHeader } from "~/components/ui/page-header";
import type { BulkRowResult } from "~/schemas/bulk";
import { DEACTIVATED } from "~/schemas/device-groups";
import { getAvailableDevices, getDeviceGroupDetails } from "~/services/device-groups.server";
import { calendarNames } from "~/services/holidays.server";
import { timeZoneOptions } from "~/services/time-zones.server";
import { requireModule } from "~/utils/auth-guards.server";
import { getDb } from "~/utils/db.server";
import { loadRecord } from "~/utils/record-from-url.server";

import { can } from "~/utils/permissions";

export const meta: MetaFunction = () => [{ title: "Modify device group" }];

/** Without an id, or with another company's, back to the list. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireModule(request, context, "device_group");
  const db = getDb(context);
  return loadRecord(request, { list: "/deviceGroups" }, async (id) => {
    const [details, available, zones, calendars] = await Promise.all([
      getDeviceGroupDetails(db, auth, id),
      getAvailableDevices(db, auth, id),
      timeZoneOptions(db),
      calendarNames(db, auth),
    ]);
    return { ...details, available, zones, calendars, canModify: can(auth.permissions, "device_group", "modify") };
  });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const auth = await requireModule(request, context, "device_group", "modify");
  const formData = await request.formData();
  if (formData.get("intent") === "addDevices") return addDevicesForm(request, formData, context, auth);
  return saveGroupForm(request, formData, context, auth, "modify");
}

export default function ModifyDeviceGroup() {
  const { group, devices, available, zones, calendars, canModify } = useLoaderData<typeof loader>();
  const { t } = useTranslation("groups");
  const [added, setAdded] = useState<BulkRowResult[] | null>(null);
  const days = [group.schMonday, group.schTuesday, group.schWednesday, group.schThursday, group.schFriday, group.schSaturday, group.schSunday];
  const active = group.status !== DEACTIVATED;
  return (
    <div className="grid gap-4">
      <PageHeader
        className="pb-1"
        title={t("modifyTitle")}
        description={group.fullName}
        actions={canModify && active && <DevicePicker group={{ id: group.id, name: group.fullName }} onDone={setAdded} />}
      />
      {canModify && !active && <p className="text-sm text-muted-foreground">{t("picker.inactive")}</p>}
      {added && <DeviceBulkResults group={{ id: group.id, name: group.fullName }} rows={added} linkToGroup={false} />}
      {/* The form holds the two device lists in its state: a changed membership starts it afresh. */}
      <GroupForm
        key={`${group.id}:${devices.map((d) => d.id).join(",")}`}
        mode="modify"
        zones={zones}
        available={available}
        inGroup={devices}
        calendars={calendars}
        values={{
          id: group.id,
          displayName: group.displayName,
          fullName: group.fullName,
          description: group.description,
          days,
          startAt: group.startAt ?? "",
          endAt: group.endAt ?? "",
          isAllDay: group.isAllDay,
          timeZoneId: group.timeZoneId,
          deactivated: group.status === DEACTIVATED,
          onHolidays: group.onHolidays,
          holidayCalendarId: group.holidayCalendarId,
        }}
      />
    </div>
  );
}
