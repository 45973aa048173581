import { useFetcher } from "@remix-run/react";
import { useEffect, useMemo } from "react";
import { useTranslation } from "react-i18next";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Spinner } from "~/components/ui/spinner";
import { formatZonedTime } from "~/utils/format";

export type CommandStatus = { id: number; status: "pending" | "sent" | "succeeded" | "failed"; error: string | null; createdAt: number; finishedAt: number | null };

/** How often an open command's status is asked for. */
const POLL_MS = 1000;

type Props = { deviceId: number; deviceName: string; command: (CommandStatus & { requestedBy: string | null }) | null; canUnlock: boolean; tz: string };

/**
 * Remote unlock on /deviceDetails (decision 0034): a confirmed unlock, then the latest command's
 * status, polled from /resources/device-command while it is open. A failure says what is known (no
 * answer in time, or the board's own reason), never that the board is offline: presence says that.
 */
export function RemoteUnlockCard({ deviceId, deviceName, command, canUnlock, tz }: Props) {
  const { t, i18n } = useTranslation("devices");
  const poll = useFetcher<CommandStatus>();
  const polled = poll.data && command && poll.data.id === command.id ? poll.data : null;
  // A new poll answer is a new object, which schedules the next poll while the command is open.
  const shown = useMemo(() => command && { ...command, ...polled }, [command, polled]);
  const open = shown?.status === "pending" || shown?.status === "sent";
  const { load } = poll;

  useEffect(() => {
    if (!open || !shown) return;
    const timer = setTimeout(() => load(`/resources/device-command?id=${shown.id}`), POLL_MS);
    return () => clearTimeout(timer);
  }, [open, shown, load]);

  return (
    <Card data-testid="remote-unlock">
      <CardHeader>
        <CardTitle>{t("unlock.title")}</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-3">
        {canUnlock ? (
          <div>
            <ConfirmDialog
              trigger={<Button disabled={open}>{t("unlock.button")}</Button>}
              title={t("unlock.confirmTitle")}
              description={t("unlock.confirmDescription", { name: deviceName })}
              fields={{ intent: "unlock", id: deviceId }}
              confirmLabel={t("unlock.button")}
              cancelLabel={t("unlock.cancel")}
            />
          </div>
        ) : (
          <p className="text-sm text-muted-foreground">{t("unlock.notAllowed")}</p>
        )}
        <div role="status" aria-live="polite" data-testid="unlock-status" className="flex flex-wrap items-center gap-2 text-sm">
          {!shown ? (
            <span className="text-muted-foreground">{t("unlock.none")}</span>
          ) : open ? (
            <>
              <Spinner />
              <span>{t(shown.status === "sent" ? "unlock.sent" : "unlock.pending")}</span>
            </>
          ) : shown.status === "succeeded" ? (
            <Badge variant="outline" className="border-success">
              {t("unlock.succeeded")}
            </Badge>
          ) : (
            <>
              <Badge variant="outline" className="border-destructive">
                {t("unlock.failed")}
              </Badge>
              <span>{shown.error === "expired" ? t("unlock.expired") : shown.error === "lockdown" ? t("unlock.lockdown") : t("unlock.boardError", { error: shown.error })}</span>
            </>
          )}
        </div>
        {shown && (
          <p className="text-xs text-muted-foreground" data-testid="unlock-when">
            {shown.requestedBy
              ? t("unlock.requestedBy", { name: shown.requestedBy, at: formatZonedTime(shown.createdAt, tz, i18n.language) })
              : t("unlock.requestedAt", { at: formatZonedTime(shown.createdAt, tz, i18n.language) })}
            {shown.finishedAt != null && `; ${t("unlock.endedAt", { at: formatZonedTime(shown.finishedAt, tz, i18n.language) })}`}
          </p>
        )}
      </CardContent>
    </Card>
  );
}
