import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "~/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "~/components/ui/dialog";
import { translateMessage } from "~/i18n/messages";
import { FIRMWARE_START_MSG } from "~/schemas/firmware-start";
import { PhoneApiError, phoneApi, type PhoneFirmware } from "./phone-api";

type Door = PhoneFirmware["doors"][number];
type Answer = { doorId: number; ok: boolean; text: string };

/**
 * The doors of the phone's keys that have a firmware release they do not run, with "Update firmware"
 * where the company's policy lets this user start it (decision 0116). The console decides: a refusal
 * (installers only, forced, already current) is its answer, shown here in the reader's language.
 */
export function FirmwareUpdates({ firmware, token, online, onStarted }: { firmware: PhoneFirmware | null; token: string; online: boolean; onStarted: () => void }) {
  const { t } = useTranslation("mobile");
  const [confirming, setConfirming] = useState<Door | null>(null);
  const [busy, setBusy] = useState<number | null>(null);
  const [answer, setAnswer] = useState<Answer | null>(null);
  if (!firmware || firmware.doors.length === 0) return null;

  async function start(door: Door) {
    setConfirming(null);
    setBusy(door.id);
    setAnswer(null);
    try {
      const r = await phoneApi.startFirmware(token, door.id);
      setAnswer({ doorId: door.id, ok: true, text: translateMessage(t, r.message, "mobile") });
      onStarted();
    } catch (e) {
      const text = !(e instanceof PhoneApiError)
        ? t("firmwareNotSent")
        : e.code === "firmware-installer-only"
          ? t("firmwareInstallersOnly")
          : translateMessage(t, e.message, "mobile");
      setAnswer({ doorId: door.id, ok: false, text });
    } finally {
      setBusy(null);
    }
  }

  const refusedUpFront = firmware.forced ? translateMessage(t, FIRMWARE_START_MSG.forced, "mobile") : !firmware.mayStart ? t("firmwareInstallersOnly") : null;
  return (
    <section aria-labelledby="firmware-title" className="space-y-3 rounded-lg border bg-card p-4" data-testid="firmware-updates">
      <h2 id="firmware-title" className="font-semibold">
        {t("firmwareTitle")}
      </h2>
      {refusedUpFront && <p className="text-sm">{refusedUpFront}</p>}
      <ul className="space-y-3">
        {firmware.doors.map((door) => (
          <li key={door.id} aria-labelledby={`firmware-door-${door.id}`} className="space-y-2 text-sm" data-door-id={door.id}>
            <h3 id={`firmware-door-${door.id}`} className="font-medium">
              {door.name}
            </h3>
            <p>
              {door.installed
                ? t("firmwareAvailable", { version: door.release.version, installed: door.installed })
                : t("firmwareAvailableUnreported", { version: door.release.version })}
            </p>
            {door.started ? (
              <p data-testid="firmware-started">{t("firmwareStarted", { version: door.release.version })}</p>
            ) : (
              !refusedUpFront && (
                <Button type="button" size="sm" variant="outline" disabled={!online || busy !== null} aria-busy={busy === door.id} onClick={() => setConfirming(door)}>
                  {busy === door.id ? t("firmwareStarting") : t("firmwareUpdate")}
                </Button>
              )
            )}
            {answer?.doorId === door.id && (
              <p role={answer.ok ? "status" : "alert"} className={answer.ok ? "font-medium" : "font-medium text-destructive"} data-testid="firmware-answer">
                {answer.text}
              </p>
            )}
          </li>
        ))}
      </ul>
      <Dialog open={confirming !== null} onOpenChange={(open) => !open && setConfirming(null)}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>{t("firmwareConfirmTitle", { name: confirming?.name })}</DialogTitle>
            <DialogDescription>{t("firmwareConfirmBody", { name: confirming?.name, version: confirming?.release.version })}</DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => setConfirming(null)}>
              {t("cancel")}
            </Button>
            <Button type="button" onClick={() => confirming && void start(confirming)}>
              {t("firmwareUpdate")}
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </section>
  );
}
