import { useTranslation } from "react-i18next";
import { Alert, AlertDescription, AlertTitle } from "~/components/ui/alert";

export type IssuedToken = { name: string; token: string };

/** A directory token right after it was created or rotated: the only time anyone sees it. */
export function IssuedTokenCard({ issued }: { issued: IssuedToken }) {
  const { t } = useTranslation("directory");
  return (
    <Alert variant="warning" data-testid="issued-token">
      <AlertTitle>{t("tokenOnce", { name: issued.name })}</AlertTitle>
      <AlertDescription>
        <p>{t("tokenOnceHint")}</p>
        <code className="mt-2 block font-mono break-all select-all" data-testid="issued-token-value">
          {issued.token}
        </code>
      </AlertDescription>
    </Alert>
  );
}
