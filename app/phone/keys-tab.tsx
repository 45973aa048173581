import { useTranslation } from "react-i18next";
import type { Core } from "~core";
import { Button } from "~/components/ui/button";
import { EmptyState } from "~/components/ui/empty-state";
import { KeyCard } from "./key-card";
import type { HeldKeys, PendingEvent, PhoneSession } from "./phone-store";
import type { UserVerification } from "./user-verification";

interface KeysTabProps {
  session: PhoneSession;
  held: HeldKeys | null;
  core: Core | null;
  now: number;
  online: boolean;
  bioRefused: UserVerification | null;
  onVerifyAgain: () => void;
  onResult: (e: PendingEvent) => void;
}

/** The keys the phone holds, with what stands between them and a fresh set (a refused verification, a reconnect due). */
export function KeysTab({ session, held, core, now, online, bioRefused, onVerifyAgain, onResult }: KeysTabProps) {
  const { t } = useTranslation("mobile");
  return (
    <>
      <p className="text-sm text-muted-foreground">{t("signedInAs", { name: session.displayName, company: session.companyId })}</p>
      {session.settings.biometricRequired && <p className="text-sm">{t("biometricRequired")}</p>}
      {bioRefused && (
        <div role="alert" className="space-y-2 text-sm font-medium text-destructive" data-testid="refresh-verification-refused">
          <p>{bioRefused === "unavailable" ? t("verificationUnavailable") : t("refreshVerificationRefused")}</p>
          {online && (
            <Button type="button" variant="outline" size="sm" onClick={onVerifyAgain}>
              {t("verifyAgain")}
            </Button>
          )}
        </div>
      )}
      {held && held.refreshBy <= now && (
        <p role="status" className="text-sm font-medium text-destructive">
          {t("reconnectNeeded")}
        </p>
      )}
      {!core || !held ? (
        <p role="status">{t("loadingKeys")}</p>
      ) : held.keys.length === 0 ? (
        <EmptyState title={t("noKeys")} />
      ) : (
        <ul className="space-y-3" aria-label={t("myKeys")}>
          {held.keys.map((k) => (
            <KeyCard
              key={`${k.kind}-${k.id}`}
              core={core}
              heldKey={k}
              lockdownState={held.lockdownState ?? null}
              now={now}
              onResult={onResult}
              verification={session.settings.biometricRequired}
            />
          ))}
        </ul>
      )}
    </>
  );
}
