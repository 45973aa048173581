import { useTranslation } from "react-i18next";
import { Alert, AlertDescription, AlertTitle } from "~/components/ui/alert";
import { LinkButton } from "~/components/ui/link-button";
import { ZonedTime } from "~/components/ui/zoned-time";

export type LockdownBannerData = { mode: "lockdown" | "evacuation"; planName: string; startedBy: string; startedAt: number; endsAt: number | null };

/** Shown above every console page while a lockdown or evacuation is in force (issue 31). */
export function LockdownBanner({ lockdown, timeZone }: { lockdown: LockdownBannerData; timeZone: string }) {
  const { t } = useTranslation("lockdown");
  return (
    <div className="mx-auto w-full max-w-7xl px-4 pt-4 sm:px-6" data-testid="lockdown-banner">
      <Alert variant="destructive" actions={<LinkButton to="/lockdown">{t("bannerLink")}</LinkButton>}>
        <AlertTitle>{t(lockdown.mode === "evacuation" ? "bannerEvacuation" : "bannerLockdown", { name: lockdown.planName })}</AlertTitle>
        <AlertDescription>
          {t("bannerStartedBy", { name: lockdown.startedBy })} <ZonedTime value={lockdown.startedAt} timeZone={timeZone} />
          {lockdown.endsAt != null && (
            <>
              {" · "}
              {t("bannerEndsAt")} <ZonedTime value={lockdown.endsAt} timeZone={timeZone} />
            </>
          )}
        </AlertDescription>
      </Alert>
    </div>
  );
}
