import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Alert, AlertDescription, AlertTitle } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";

/** A new API key right after it was made: the only time anyone sees it, with a button that copies it. */
export function KeyOnceCard({ name, apiKey }: { name: string; apiKey: string }) {
  const { t } = useTranslation("apiKeys");
  const [copied, setCopied] = useState<boolean | null>(null);
  const copy = () =>
    navigator.clipboard?.writeText(apiKey).then(
      () => setCopied(true),
      () => setCopied(false),
    ) ?? setCopied(false);
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
        <code className="rounded border bg-muted p-2 font-mono text-sm break-all select-all" data-testid="api-key-value">
          {apiKey}
        </code>
        <div className="flex items-center gap-3">
          <Button type="button" variant="outline" onClick={copy}>
            {t("copy")}
          </Button>
          <span role="status" className="text-sm text-muted-foreground">
            {copied === true ? t("copied") : copied === false ? t("copyFailed") : ""}
          </span>
        </div>
      </CardContent>
    </Card>
  );
}
