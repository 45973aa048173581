import { redirect, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { DetailList } from "~/components/devices/detail-list";
import { deviceSettingItems } from "~/components/devices/device-settings";
import { LinkListCard } from "~/components/devices/link-list-card";
import { ScheduledOpenCard } from "~/components/devices/scheduled-open-card";
import { Alert, AlertTitle } from "~/components/ui/alert";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { PageHeader } from "~/components/ui/page-header";
import { getDeviceDetails } from "~/services/devices.server";
import { requireModule } from "~/utils/auth-guards.server";
import { getDb } from "~/utils/db.server";
import { ServiceError } from "~/utils/errors.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.device.fullName ?? "Device" }];

/** Read-only; without an id, or with another company's, back to the list. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireModule(request, context, "devices");
  const id = Number(new URL(request.url).searchParams.get("id"));
  if (!Number.isInteger(id) || id <= 0) throw redirect("/devices");
  try {
    return await getDeviceDetails(getDb(context), auth, id);
  } catch (err) {
    if (err instanceof ServiceError && err.status === 404) throw redirect("/devices");
    throw err;
  }
}

export default function DeviceDetailsPage() {
  const { device, deviceType, scheduledOpen, fpi, week, exceptions, users, groups } = useLoaderData<typeof loader>();
  const { t } = useTranslation("devices");
  return (
    <div className="grid gap-5">
      {device.lowBattery && (
        <Alert variant="destructive" role="alert" data-testid="low-battery">
          <AlertTitle>{t("lowBattery")}</AlertTitle>
        </Alert>
      )}
      <PageHeader
        title={device.fullName}
        actions={
          <Link to="/devices" className="text-sm text-primary underline-offset-4 hover:underline">
            {t("details.back")}
          </Link>
        }
        className="pb-0"
      />
      <Card>
        <CardHeader>
          <CardTitle>{t("details.settings")}</CardTitle>
        </CardHeader>
        <CardContent>
          <DetailList items={deviceSettingItems(t, device, deviceType, scheduledOpen, fpi)} />
        </CardContent>
      </Card>
      {scheduledOpen && <ScheduledOpenCard week={week} exceptions={exceptions} />}
      <div className="grid gap-5 md:grid-cols-2">
        <LinkListCard
          title={t("details.users")}
          empty={t("details.noUsers")}
          testId="key-holders"
          items={users.map((u) => ({ id: u.id, label: u.displayName, to: `/modifyUser?id=${u.id}` }))}
        />
        <LinkListCard
          title={t("details.groups")}
          empty={t("details.noGroups")}
          testId="device-groups"
          items={groups.map((g) => ({ id: g.id, label: g.fullName, to: `/modifyDeviceGroup?id=${g.id}` }))}
        />
      </div>
    </div>
  );
}
