import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { saveGroupForm } from "~/utils/device-group-action.server";
import { GroupForm } from "~/components/device-groups/group-form";
import { PageHeader } from "~/components/ui/page-header";
import { DEACTIVATED } from "~/schemas/device-groups";
import { getAvailableDevices, getDeviceGroupDetails } from "~/services/device-groups.server";
import { timeZoneOptions } from "~/services/time-zones.server";
import { requireModule } from "~/utils/auth-guards.server";
import { getDb } from "~/utils/db.server";
import { ServiceError } from "~/utils/errors.server";

export const meta: MetaFunction = () => [{ title: "Modify device group" }];

/** Without an id, or with another company's, back to the list. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireModule(request, context, "device_group");
  const id = Number(new URL(request.url).searchParams.get("id"));
  if (!Number.isInteger(id) || id <= 0) throw redirect("/deviceGroups");
  const db = getDb(context);
  try {
    const [details, available, zones] = await Promise.all([getDeviceGroupDetails(db, auth, id), getAvailableDevices(db, auth, id), timeZoneOptions(db)]);
    return { ...details, available, zones };
  } catch (err) {
    if (err instanceof ServiceError && err.status === 404) throw redirect("/deviceGroups");
    throw err;
  }
}

export async function action({ request, context }: ActionFunctionArgs) {
  const auth = await requireModule(request, context, "device_group", "modify");
  return saveGroupForm(request, context, auth, "modify");
}

export default function ModifyDeviceGroup() {
  const { group, devices, available, zones } = useLoaderData<typeof loader>();
  const { t } = useTranslation("groups");
  const days = [group.schMonday, group.schTuesday, group.schWednesday, group.schThursday, group.schFriday, group.schSaturday, group.schSunday];
  return (
    <div>
      <PageHeader title={t("modifyTitle")} description={group.fullName} />
      <GroupForm
        key={group.id}
        mode="modify"
        zones={zones}
        available={available}
        inGroup={devices}
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
        }}
      />
    </div>
  );
}
