import { useTranslation } from "react-i18next";
import { CopyableSecret } from "~/components/copyable-secret";
import { Alert, AlertDescription, AlertTitle } from "~/components/ui/alert";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";

/** A new API key right after it was made: the only time anyone sees it, with a button that copies it. */
export function KeyOnceCard({ name, apiKey }: { name: string; apiKey: string }) {
  const { t } = useTranslation("apiKeys");
  return (
    <Card data-testid="api-key-once">
      <CardHeader>
        <CardTitle>{t("createdTitle", { name })}</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-3">
        <Alert variant="warning">
          <AlertTitle>{t("once")}</AlertTitle>
          <AlertDescription>{t("onceHint")}</AlertDescription>
        </Alert>
        <CopyableSecret value={apiKey} testId="api-key-value" text={{ copy: t("copy"), copied: t("copied"), copyFailed: t("copyFailed") }} />
      </CardContent>
    </Card>
  );
}
