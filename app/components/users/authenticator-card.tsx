import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";

type Props = { on: boolean; isSelf: boolean; canReset: boolean; name: string };

/**
 * Account Details: whether the user signs in with an authenticator app. Their own page links to where they
 * set it up; a super admin reading someone else's can remove it (a lost phone), after confirming.
 */
export function AuthenticatorCard({ on, isSelf, canReset, name }: Props) {
  const { t } = useTranslation("authenticator");
  return (
    <Card>
      <CardHeader>
        <CardTitle>{t("cardTitle")}</CardTitle>
      </CardHeader>
      <CardContent className="flex flex-wrap items-center gap-4">
        <p className="text-sm" data-testid="authenticator-status">
          {t(on ? "cardOn" : "cardOff")}
        </p>
        {isSelf && (
          <Button asChild variant="outline" size="sm" className="h-auto max-w-full whitespace-normal">
            <Link to="/authenticatorApp">{t("cardManage")}</Link>
          </Button>
        )}
        {!isSelf && on && canReset && (
          <ConfirmDialog
            trigger={
              <Button variant="outline" size="sm" className="h-auto max-w-full whitespace-normal" data-intent="resetAuthenticator">
                {t("resetAuthenticator")}
              </Button>
            }
            title={t("resetTitle")}
            description={t("resetDescription", { name })}
            fields={{ intent: "resetAuthenticator" }}
            confirmLabel={t("resetAuthenticator")}
            cancelLabel={t("cancel")}
            destructive
          />
        )}
      </CardContent>
    </Card>
  );
}
