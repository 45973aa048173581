import { useTranslation } from "react-i18next";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { DetailList } from "~/components/devices/detail-list";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";

export type DeviceFirmware = {
  allowed: string;
  forced: boolean;
  installed: string | null;
  release: { id: number; version: string } | null;
  upToDate: boolean;
  started: boolean;
  /** The caller may start it: devices/modify and the company's "allowed to update firmware". */
  canStart: boolean;
};

/**
 * The board's firmware on /deviceDetails under the company's policy (decision 0116): with force the
 * gateway offers the release on its own; otherwise an allowed user starts it here. The server refuses
 * a start the policy excludes whatever the page shows.
 */
export function FirmwareCard({ deviceId, deviceName, firmware }: { deviceId: number; deviceName: string; firmware: DeviceFirmware }) {
  const { t } = useTranslation("devices");
  const { release } = firmware;
  const state = !release
    ? t("firmware.noRelease")
    : firmware.upToDate
      ? t("firmware.upToDate")
      : firmware.forced
        ? t("firmware.forcedState")
        : firmware.started
          ? t("firmware.started")
          : t("firmware.notStarted");
  return (
    <Card data-testid="firmware">
      <CardHeader>
        <CardTitle>{t("firmware.title")}</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-3">
        <DetailList
          items={[
            { key: "fw-installed", label: t("firmware.installed"), value: firmware.installed },
            { key: "fw-available", label: t("firmware.available"), value: release?.version },
            {
              key: "fw-policy",
              label: t("firmware.policy"),
              value: firmware.forced ? t("firmware.forced") : t(firmware.allowed === "Installer Only" ? "firmware.installersStart" : "firmware.allStart"),
            },
          ]}
        />
        <p role="status" className="text-sm" data-testid="firmware-state">
          {state}
        </p>
        {release && !firmware.upToDate && !firmware.forced && !firmware.started && (
          <div>
            {firmware.canStart ? (
              <ConfirmDialog
                trigger={<Button variant="outline">{t("firmware.start")}</Button>}
                title={t("firmware.confirmTitle")}
                description={t("firmware.confirmDescription", { name: deviceName, version: release.version })}
                fields={{ intent: "firmware", deviceId }}
                confirmLabel={t("firmware.start")}
                cancelLabel={t("unlock.cancel")}
              />
            ) : (
              <p className="text-sm text-muted-foreground">{t(firmware.allowed === "Installer Only" ? "firmware.installersOnly" : "firmware.notAllowed")}</p>
            )}
          </div>
        )}
      </CardContent>
    </Card>
  );
}
