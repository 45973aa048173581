import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { useActionData, useLoaderData, useLocation } from "@remix-run/react";
import QRCode from "qrcode";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { DetailList } from "~/components/devices/detail-list";
import { deviceSettingItems } from "~/components/devices/device-settings";
import { DeviceStatusCard } from "~/components/devices/device-status-card";
import { LinkListCard } from "~/components/devices/link-list-card";
import { RemoteUnlockCard } from "~/components/devices/remote-unlock-card";
import { ScheduledOpenCard } from "~/components/devices/scheduled-open-card";
import { BoardSecretCard, type IssuedBoardSecret } from "~/components/lifecycle/board-secret-card";
import { DeviceSettingsForm } from "~/components/lifecycle/device-settings-form";
import { FirmwareCard } from "~/components/devices/firmware-card";
import { firmwareStartSchema } from "~/schemas/firmware-start";
import { deviceFirmware, startFirmwareUpdate } from "~/services/firmware-start.server";
import { deviceStatusText } from "~/components/lifecycle/device-status";
import { RemoveConfigurationDialog } from "~/components/lifecycle/remove-configuration-dialog";
import { Alert, AlertTitle } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { PageHeader } from "~/components/ui/page-header";
import { COMMAND_MSG, unlockSchema, unlockTtlFor } from "~/schemas/device-commands";
import { configureFormSchema, configureSchema, deviceIdSchema, removeConfigurationSchema } from "~/schemas/device-lifecycle";
import { latestCommand, requestUnlock } from "~/services/device-commands.server";
import {
  configureDevice,
  lifecycleRights,
  removeDeviceConfiguration,
  retireDevice,
  rotateDeviceSecret,
  updateDeviceSettings,
  type IssuedSecret,
} from "~/services/device-lifecycle.server";
import { todayOf } from "~/utils/today";
import { getDeviceDetails, getDeviceLiveStatus } from "~/services/devices.server";
import { companyZone, requireModule } from "~/utils/auth-guards.server";
import { getDb, nowMs } from "~/utils/db.server";
import { formAction, type FormReply } from "~/utils/form-action.server";
import { can } from "~/utils/permissions";
import { loadRecord } from "~/utils/record-from-url.server";
import { redirectWithMessage } from "~/utils/toast.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.device.fullName || data?.device.serialNumber || "Device" }];

type ActionData = Partial<FormReply> & { intent: string; issued?: IssuedBoardSecret };

/** Without an id, or with another company's, back to the list. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireModule(request, context, "devices");
  const db = getDb(context);
  return loadRecord(request, { list: "/devices" }, async (id) => {
    const now = nowMs();
    const [details, rights] = await Promise.all([getDeviceDetails(db, auth, id), lifecycleRights(db, auth)]);
    const [command, live, fw] = await Promise.all([latestCommand(db, auth, id, now), getDeviceLiveStatus(db, auth, id, now), deviceFirmware(db, auth, id)]);
    const canModify = can(auth.permissions, "devices", "modify");
    const canUnlock = canModify && details.device.status === "configured";
    const tz = companyZone(auth);
    return {
      ...details,
      rights,
      tz,
      today: todayOf(now, tz),
      live,
      command: command && {
        id: command.id,
        status: command.status,
        error: command.error,
        createdAt: command.createdAt,
        finishedAt: command.finishedAt,
        requestedBy: command.requestedBy,
      },
      canUnlock,
      firmware: { ...fw, canStart: canModify && fw.mayStart },
    };
  });
}

const SCHEMAS = {
  configure: configureFormSchema,
  edit: configureSchema,
  rotate: deviceIdSchema,
  remove: removeConfigurationSchema,
  retire: deviceIdSchema,
  unlock: unlockSchema,
  firmware: firmwareStartSchema,
} as const;

async function withQr(r: IssuedSecret): Promise<IssuedBoardSecret> {
  const qrSvg = await QRCode.toString(JSON.stringify({ board: String(r.id), secret: r.secret }), { type: "svg", margin: 1, errorCorrectionLevel: "M" });
  return { id: r.id, serialNumber: r.serialNumber, secret: r.secret, qrSvg };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const auth = await requireModule(request, context, "devices");
  const formData = await request.formData();
  const intent = String(formData.get("intent") ?? "");
  if (!(intent in SCHEMAS)) throw new Response("Unknown intent", { status: 400 });
  const db = getDb(context);
  const now = nowMs();
  const page = { request, context };
  const refuseWithToast = (ns: string) => ({ formData, onRefusal: (message: string) => redirectWithMessage(page, { ns, message, type: "error" }) });
  switch (intent as keyof typeof SCHEMAS) {
    case "unlock":
      return formAction(
        request,
        unlockSchema,
        async (v) => {
          await requestUnlock(db, auth, v, now, unlockTtlFor(context.cloudflare.env));
          return redirectWithMessage(page, { ns: "devices", message: COMMAND_MSG.sent });
        },
        refuseWithToast("devices"),
      );
    case "firmware":
      return formAction(
        request,
        firmwareStartSchema,
        async (v) => redirectWithMessage(page, { ns: "devices", message: (await startFirmwareUpdate(db, auth, v, now)).message }),
        refuseWithToast("devices"),
      );
    case "rotate":
      return formAction(request, deviceIdSchema, async ({ id }) => ({ intent, issued: await withQr(await rotateDeviceSecret(db, auth, id, now)) }), refuseWithToast("lifecycle"));
    case "retire":
      return formAction(
        request,
        deviceIdSchema,
        async ({ id }) => redirectWithMessage(page, { ns: "lifecycle", message: (await retireDevice(db, auth, id, now)).message }),
        refuseWithToast("lifecycle"),
      );
    case "configure":
      return formAction(
        request,
        configureFormSchema,
        async (v, submission) => ({ intent, issued: await withQr(await configureDevice(db, auth, v, now)), result: submission.reply({ resetForm: true }) }),
        { formData, extra: { intent } },
      );
    case "edit":
      return formAction(request, configureSchema, async (v) => redirectWithMessage(page, { ns: "lifecycle", message: (await updateDeviceSettings(db, auth, v, now)).message }), {
        formData,
        extra: { intent },
      });
    case "remove":
      return formAction(
        request,
        removeConfigurationSchema,
        async (v) => redirectWithMessage(page, { ns: "lifecycle", message: (await removeDeviceConfiguration(db, auth, v, now)).message }),
        { formData, extra: { intent } },
      );
  }
}

export default function DeviceDetailsPage() {
  const { device, deviceType, scheduledOpen, fpi, week, exceptions, users, groups, rights, tz, today, hasBoardSecret, command, canUnlock, live, firmware } =
    useLoaderData<typeof loader>();
  const actionData = useActionData<ActionData>();
  const { t } = useTranslation("devices");
  const { t: tl, i18n } = useTranslation("lifecycle");
  const status = device.status;
  // A refused edit comes back with the form open and its errors; a saved one (a redirect here) closes it.
  const [editing, setEditing] = useState(actionData?.intent === "edit");
  const { key } = useLocation();
  useEffect(() => {
    if (actionData?.intent !== "edit") setEditing(false);
  }, [key, actionData]);
  const canEdit = status === "configured" && rights.configure;
  return (
    <div className="grid gap-5">
      {device.lowBattery && (
        <Alert variant="destructive" role="alert" data-testid="low-battery">
          <AlertTitle>{t("lowBattery")}</AlertTitle>
        </Alert>
      )}
      <PageHeader
        title={device.fullName || device.serialNumber}
        description={
          <span data-testid="device-status">
            {tl("col.status")}: {deviceStatusText(tl, status, device.startDate, today, i18n.language)}
          </span>
        }
        back={{ to: "/devices", label: t("details.back") }}
        className="pb-0"
      />
      {actionData?.issued && <BoardSecretCard issued={actionData.issued} />}
      {status !== "stock" && <DeviceStatusCard deviceId={device.id} status={live} tz={tz} />}
      {status === "unconfigured" && rights.configure && !actionData?.issued && (
        <DeviceSettingsForm intent="configure" device={device} lastResult={actionData?.intent === "configure" ? actionData.result : undefined} />
      )}
      {status === "configured" && <RemoteUnlockCard deviceId={device.id} deviceName={device.fullName || device.serialNumber} command={command} canUnlock={canUnlock} tz={tz} />}
      {status === "configured" && <FirmwareCard deviceId={device.id} deviceName={device.fullName || device.serialNumber} firmware={firmware} />}
      {editing && canEdit ? (
        <DeviceSettingsForm intent="edit" device={device} lastResult={actionData?.intent === "edit" ? actionData.result : undefined} onCancel={() => setEditing(false)} />
      ) : (
        <Card>
          <CardHeader className="flex flex-row flex-wrap items-center justify-between gap-2">
            <CardTitle>{t("details.settings")}</CardTitle>
            {canEdit && (
              <Button variant="outline" onClick={() => setEditing(true)}>
                {t("details.editSettings")}
              </Button>
            )}
          </CardHeader>
          <CardContent>
            <DetailList items={deviceSettingItems(t, device, deviceType, scheduledOpen, fpi, tz, i18n.language)} />
          </CardContent>
        </Card>
      )}
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
      {/* Consequential lifecycle actions last, each behind its confirmation. */}
      {(status === "configured" || status === "unconfigured") && (rights.configure || rights.retire) && (
        <Card data-testid="lifecycle-actions">
          <CardHeader>
            <CardTitle>{tl("lifecycleTitle")}</CardTitle>
          </CardHeader>
          <CardContent className="flex flex-wrap gap-2">
            {status === "configured" && rights.configure && (
              <ConfirmDialog
                trigger={<Button variant="outline">{tl("rotateSecret")}</Button>}
                title={tl("rotateTitle")}
                description={tl(hasBoardSecret ? "rotateDescription" : "issueDescription")}
                fields={{ intent: "rotate", id: device.id }}
                confirmLabel={tl("rotateSecret")}
                cancelLabel={tl("cancel")}
              />
            )}
            {status === "configured" && rights.remove && (
              <RemoveConfigurationDialog deviceId={device.id} displayName={device.displayName} lastResult={actionData?.intent === "remove" ? actionData.result : undefined} />
            )}
            {rights.retire && (
              <ConfirmDialog
                trigger={<Button variant="destructive">{tl("retire")}</Button>}
                title={tl("retireTitle")}
                description={tl("retireDescription", { name: device.fullName || device.serialNumber })}
                fields={{ intent: "retire", id: device.id }}
                confirmLabel={tl("retire")}
                cancelLabel={tl("cancel")}
                destructive
              />
            )}
          </CardContent>
        </Card>
      )}
    </div>
  );
}
