import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "~/components/ui/button";

/** A webhook signing secret in full, selectable, with a button that copies it. */
export function SecretValue({ secret }: { secret: string }) {
  const { t } = useTranslation("webhooks");
  const [copied, setCopied] = useState<boolean | null>(null);
  const copy = () =>
    navigator.clipboard?.writeText(secret).then(
      () => setCopied(true),
      () => setCopied(false),
    ) ?? setCopied(false);
  return (
    <div className="grid gap-2">
      <code className="rounded border bg-muted p-2 font-mono text-sm break-all select-all" data-testid="webhook-secret" aria-label={t("secretLabel")}>
        {secret}
      </code>
      <div className="flex items-center gap-3">
        <Button type="button" variant="outline" size="sm" onClick={copy}>
          {t("copy")}
        </Button>
        <span role="status" className="text-sm text-muted-foreground">
          {copied === true ? t("copied") : copied === false ? t("copyFailed") : ""}
        </span>
      </div>
    </div>
  );
}
