import { useTranslation } from "react-i18next";
import { Badge } from "~/components/ui/badge";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { LinkButton } from "~/components/ui/link-button";
import type { DeviceLiveStatus } from "~/services/devices.server";
import { formatZonedTime } from "~/utils/format";
import { BoardClock } from "./board-clock";
import { DetailList } from "./detail-list";
import { DoorState } from "./door-state";

/**
 * The top of /deviceDetails: presence as the devices list shows it, the door (current only while
 * online, otherwise its last report), battery, firmware, the clock and zone data its gateway last read, and the last event, linked to its activity.
 */
export function DeviceStatusCard({ deviceId, status, tz }: { deviceId: number; status: DeviceLiveStatus; tz: string }) {
  const { t, i18n } = useTranslation("devices");
  const at = (ms: number | null) => formatZonedTime(ms, tz, i18n.language);
  const { online, since } = status;
  const connection =
    online == null ? (
      <Badge variant="outline">{t("status.neverSeen")}</Badge>
    ) : (
      <span className="flex flex-wrap items-center gap-2">
        <Badge variant={online ? "success" : "secondary"}>{t(online ? "online.yes" : "online.no")}</Badge>
        {since != null && <span>{t(online ? "status.onlineSince" : "status.offlineSince", { at: at(since) })}</span>}
      </span>
    );
  return (
    <Card data-testid="device-status-card">
      <CardHeader>
        <CardTitle>{t("status.title")}</CardTitle>
      </CardHeader>
      <CardContent>
        <DetailList
          items={[
            { key: "status-connection", label: t("status.connection"), value: connection },
            {
              key: "status-door",
              label: t("status.door"),
              value: (
                <span className="flex flex-wrap items-center gap-2">
                  <DoorState t={t} online={online} doorState={status.doorState} />
                  {status.doorState && status.doorStateAt != null && <span className="text-xs text-muted-foreground">{t("status.doorAt", { at: at(status.doorStateAt) })}</span>}
                </span>
              ),
            },
            {
              key: "status-battery",
              label: t("status.battery"),
              value: status.lowBattery ? <Badge variant="warning">{t("details.batteryLow")}</Badge> : t("details.batteryGood"),
            },
            {
              key: "status-firmware",
              label: t("status.firmware"),
              value: (
                <span className="flex flex-wrap items-center gap-1">
                  {status.firmwareVersion ?? "-"}
                  {status.firmwarePending && <Badge variant="outline">{t("firmware.pending")}</Badge>}
                </span>
              ),
            },
            {
              key: "status-clock",
              label: t("status.clock"),
              value: (
                <span className="grid justify-items-start gap-1">
                  <BoardClock reading={status} />
                  {status.clockReportedAt != null && <span className="text-xs text-muted-foreground">{t("clock.checked", { at: at(status.clockReportedAt) })}</span>}
                </span>
              ),
            },
            {
              key: "status-lastEvent",
              label: t("status.lastEvent"),
              value:
                status.lastActivityAt == null ? (
                  t("status.noEvent")
                ) : (
                  <span className="flex flex-wrap items-center gap-2">
                    {at(status.lastActivityAt)}
                    <LinkButton variant="link" size="inline" to={`/activity?id=${deviceId}&type=Device`}>
                      {t("status.viewActivity")}
                    </LinkButton>
                  </span>
                ),
            },
          ]}
        />
      </CardContent>
    </Card>
  );
}
