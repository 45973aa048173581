import { useState } from "react";
import { Button } from "~/components/ui/button";

/**
 * A secret shown in full (an API key, a webhook signing secret), selectable, with a button that copies it
 * and a status saying whether the copy worked. The texts come from the page's own namespace.
 */
export function CopyableSecret({ value, testId, label, text }: { value: string; testId: string; label?: string; text: { copy: string; copied: string; copyFailed: string } }) {
  const [copied, setCopied] = useState<boolean | null>(null);
  const copy = () =>
    navigator.clipboard?.writeText(value).then(
      () => setCopied(true),
      () => setCopied(false),
    ) ?? setCopied(false);
  return (
    <div className="grid gap-2">
      <code className="rounded border bg-muted p-2 font-mono text-sm break-all select-all" data-testid={testId} aria-label={label}>
        {value}
      </code>
      <div className="flex items-center gap-3">
        <Button type="button" variant="outline" size="sm" onClick={copy}>
          {text.copy}
        </Button>
        <span role="status" className="text-sm text-muted-foreground">
          {copied === true ? text.copied : copied === false ? text.copyFailed : ""}
        </span>
      </div>
    </div>
  );
}
