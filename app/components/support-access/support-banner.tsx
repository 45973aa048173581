import { Form } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Alert, AlertDescription, AlertTitle } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { ZonedTime } from "~/components/ui/zoned-time";

export type SupportBannerData = { company: string; grantee: string; grantedBy: string; reason: string; expiresAt: number };

/** Above every page of a support session (decision 0093): whose console, for whom, until when, and the way out. */
export function SupportBanner({ support, timeZone }: { support: SupportBannerData; timeZone: string }) {
  const { t } = useTranslation("supportAccess");
  return (
    <div className="mx-auto w-full max-w-7xl px-4 pt-4 sm:px-6" data-testid="support-banner">
      <Alert
        variant="warning"
        actions={
          <Form method="post" action="/resources/support-session">
            <input type="hidden" name="intent" value="leave" />
            <Button type="submit" variant="outline">
              {t("leave")}
            </Button>
          </Form>
        }
      >
        <AlertTitle>{t("bannerTitle", { company: support.company, grantee: support.grantee })}</AlertTitle>
        <AlertDescription>
          {t("bannerGrantedBy", { name: support.grantedBy, reason: support.reason })} · {t("bannerUntil")} <ZonedTime value={support.expiresAt} timeZone={timeZone} />
        </AlertDescription>
      </Alert>
    </div>
  );
}
