import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { saveGroupForm } from "~/routes/device-group-form-action.server";
import { GroupForm } from "~/components/device-groups/group-form";
import { PageHeader } from "~/components/ui/page-header";
import { getAvailableDevices } from "~/services/device-groups.server";
import { calendarNames } from "~/services/holidays.server";
import { timeZoneOptions, zoneIdOf } from "~/services/time-zones.server";
import { requireModule } from "~/utils/auth-guards.server";
import { getDb, nowMs } from "~/utils/db.server";

export const meta: MetaFunction = () => [{ title: "Add device group" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireModule(request, context, "device_group", "add");
  const db = getDb(context);
  const [zones, available, calendars] = await Promise.all([timeZoneOptions(db), getAvailableDevices(db, auth), calendarNames(db, auth)]);
  // A new key after each save remounts the form, so 'add and create another' starts empty.
  return { zones, zoneId: zoneIdOf(zones, auth.company.zone), available, calendars, formKey: nowMs() };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const auth = await requireModule(request, context, "device_group", "add");
  return saveGroupForm(request, await request.formData(), context, auth, "add");
}

export default function AddDeviceGroup() {
  const { zones, zoneId, available, calendars, formKey } = useLoaderData<typeof loader>();
  const { t } = useTranslation("groups");
  return (
    <div>
      <PageHeader title={t("addTitle")} back={{ to: "/deviceGroups", label: t("title") }} />
      <GroupForm
        key={formKey}
        mode="add"
        zones={zones}
        available={available}
        inGroup={[]}
        calendars={calendars}
        values={{
          displayName: "",
          fullName: "",
          description: "",
          days: Array(7).fill(false),
          startAt: "",
          endAt: "",
          isAllDay: false,
          timeZoneId: zoneId,
          deactivated: false,
          onHolidays: "ignore",
          holidayCalendarId: null,
        }}
      />
    </div>
  );
}
