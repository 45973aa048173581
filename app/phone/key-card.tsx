import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import type { Core } from "~core";
import { keyStatus, localTime } from "./key-status";
import type { BoardAnswer } from "~/schemas/mobile";
import { phoneTime } from "./phone-time";
import { PresentDialog } from "./present-dialog";
import { verifyUser, type UserVerification } from "./user-verification";
import type { HeldKey, PendingEvent } from "./phone-store";

/** One held key: its doors, "open now?" and "next open" from the core in the key's zone, and its credential's state. */
export function KeyCard({
  core,
  heldKey,
  lockdownState,
  now,
  onResult,
  verification,
}: {
  core: Core;
  heldKey: HeldKey;
  lockdownState: string | null;
  now: number;
  onResult: (e: PendingEvent) => void;
  /** The company requires biometrics: the phone verifies its user again before a key is presented. */
  verification: boolean;
}) {
  const { t, i18n } = useTranslation("mobile");
  const [presenting, setPresenting] = useState(false);
  const [last, setLast] = useState<BoardAnswer | null>(null);
  const [checking, setChecking] = useState(false);
  const [refused, setRefused] = useState<UserVerification | null>(null);

  /** With biometrics required, the credential is shown only after the phone verified its user. */
  async function present() {
    setRefused(null);
    if (verification) {
      setChecking(true);
      const r = await verifyUser();
      setChecking(false);
      if (r !== "verified") return setRefused(r);
    }
    setPresenting(true);
  }
  const s = keyStatus(core, heldKey, now);
  const tz = String(heldKey.window.tz ?? "UTC");
  const titleId = `key-${heldKey.kind}-${heldKey.id}`;
  return (
    <li aria-labelledby={titleId} className="rounded-lg border bg-card p-4 shadow-sm" data-key-id={heldKey.id}>
      <div className="flex items-start justify-between gap-2">
        <h2 id={titleId} className="font-semibold">
          {heldKey.name}
        </h2>
        {/* The success badge's green text on its tint is below 4.5:1 on a card: the label stays in the body colour. */}
        <Badge variant={s.openNow ? "success" : "secondary"} className={s.openNow ? "text-foreground" : undefined} data-testid="open-now">
          {s.invalid ? t("invalidKey") : s.openNow ? t("openNow") : t("closedNow")}
        </Badge>
      </div>
      <p className="text-sm text-muted-foreground">{heldKey.doors.map((d) => d.name).join(", ") || t("noDoors")}</p>
      <p className="mt-1 text-sm" data-testid="next-open">
        {s.openNow && s.until != null && t("closesAt", { time: localTime(core, s.until, tz), tz })}
        {!s.openNow && !s.invalid && (s.nextOpen != null ? t("nextOpen", { time: localTime(core, s.nextOpen, tz), tz }) : t("neverOpens"))}
      </p>
      {s.needsRefresh ? (
        <p role="status" className="mt-2 text-sm font-medium text-destructive" data-testid="needs-refresh">
          {t("needsRefresh")}
        </p>
      ) : (
        <p className="mt-2 text-xs text-muted-foreground">{t("validUntil", { time: phoneTime(heldKey.credential!.expiresAt, i18n.language) })}</p>
      )}
      <Button type="button" className="mt-3" size="sm" disabled={checking || s.needsRefresh || heldKey.doors.length === 0} onClick={present} aria-busy={checking}>
        {t("present")}
      </Button>
      {refused && (
        <p role="alert" className="mt-2 text-sm font-medium text-destructive" data-testid="verification-refused">
          {refused === "unavailable" ? t("verificationUnavailable") : t("verificationRefused")}
        </p>
      )}
      <p role="status" className={last?.allowed ? "mt-2 text-sm font-medium" : "mt-2 text-sm font-medium text-destructive"} data-testid="present-result">
        {last && (last.allowed ? t("doorOpened") : t("doorRefused", { reason: t(`reason.${last.reason}`, { defaultValue: last.reason }) }))}
      </p>
      {presenting && (
        <PresentDialog
          heldKey={heldKey}
          lockdownState={lockdownState}
          open={presenting}
          onOpenChange={setPresenting}
          onResult={(e, answer) => {
            setLast(answer);
            onResult(e);
          }}
        />
      )}
    </li>
  );
}
