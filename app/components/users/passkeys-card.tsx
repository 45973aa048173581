import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";

type Props = { count: number; isSelf: boolean; canReset: boolean; name: string };

/**
 * Account Details: the user's console passkeys (decision 0123). Their own page links to where they manage
 * them; a super admin reading someone else's can remove them all (a lost device), after confirming.
 */
export function PasskeysCard({ count, isSelf, canReset, name }: Props) {
  const { t } = useTranslation("passkeys");
  return (
    <Card>
      <CardHeader>
        <CardTitle>{t("cardTitle")}</CardTitle>
      </CardHeader>
      <CardContent className="flex flex-wrap items-center gap-4">
        <p className="text-sm" data-testid="passkeys-status">
          {count === 0 ? t("none") : t("cardCount", { count })}
        </p>
        {isSelf && (
          <Button asChild variant="outline" size="sm" className="h-auto max-w-full whitespace-normal">
            <Link to="/passkeys">{t("cardManage")}</Link>
          </Button>
        )}
        {!isSelf && count > 0 && canReset && (
          <ConfirmDialog
            trigger={
              <Button variant="outline" size="sm" className="h-auto max-w-full whitespace-normal" data-intent="resetPasskeys">
                {t("resetPasskeys")}
              </Button>
            }
            title={t("resetTitle")}
            description={t("resetDescription", { name })}
            fields={{ intent: "resetPasskeys" }}
            confirmLabel={t("resetPasskeys")}
            cancelLabel={t("cancel")}
            destructive
          />
        )}
      </CardContent>
    </Card>
  );
}
