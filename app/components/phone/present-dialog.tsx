import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "~/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "~/components/ui/dialog";
import { Field } from "~/components/ui/field";
import { Textarea } from "~/components/ui/textarea";
import type { HeldKey, PendingEvent } from "./phone-store";

/**
 * Presenting a key to a door. Bluetooth is simulated through the clipboard: the credential is copied
 * here and given to the board simulator (`npm run board -- verify … --credential <token>`, or
 * `--present <token>` on a connected board); the board's one-line answer pasted back is recorded as an
 * unlock attempt and reported when the phone is online (gateway/README.md, "Phone app and signed credentials").
 */
export function PresentDialog({
  heldKey,
  open,
  onOpenChange,
  onResult,
}: {
  heldKey: HeldKey;
  open: boolean;
  onOpenChange: (o: boolean) => void;
  onResult: (e: PendingEvent) => void;
}) {
  const { t } = useTranslation("mobile");
  const [answer, setAnswer] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);
  const token = heldKey.credential?.token ?? "";
  const door = heldKey.doors[0];
  const command = `npm run board -- verify --jwks keys.json --door ${door?.id ?? "<door>"} --at ${new Date().toISOString()} --credential ${token}`;

  function record() {
    let parsed: { allowed?: unknown; reason?: unknown };
    try {
      parsed = JSON.parse(answer);
    } catch {
      parsed = {};
    }
    if (typeof parsed.allowed !== "boolean" || typeof parsed.reason !== "string" || !/^[a-z_]{1,40}$/.test(parsed.reason)) {
      setError(t("answerInvalid"));
      return;
    }
    onResult({
      eventId: `u-${crypto.randomUUID()}`,
      type: "unlock",
      deviceId: door.id,
      keyId: heldKey.id,
      allowed: parsed.allowed,
      reason: parsed.reason,
      credentialId: heldKey.credential?.id,
      at: Date.now(),
    });
    setAnswer("");
    setError(null);
    onOpenChange(false);
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{t("presentTitle", { name: heldKey.name })}</DialogTitle>
          <DialogDescription>{t("presentHelp")}</DialogDescription>
        </DialogHeader>
        <Field label={t("credential")}>
          <Textarea readOnly value={token} rows={3} className="font-mono text-xs" />
        </Field>
        <Field label={t("boardCommand")}>
          <Textarea readOnly value={command} rows={3} className="font-mono text-xs" />
        </Field>
        <Button
          type="button"
          variant="outline"
          onClick={() =>
            navigator.clipboard?.writeText(token).then(
              () => setCopied(true),
              () => setCopied(false),
            )
          }
        >
          {copied ? t("copied") : t("copy")}
        </Button>
        <Field label={t("boardAnswer")} hint={t("boardAnswerHint")} error={error}>
          <Textarea value={answer} onChange={(e) => setAnswer(e.target.value)} rows={2} maxLength={200} className="font-mono text-xs" />
        </Field>
        <DialogFooter>
          <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
            {t("close")}
          </Button>
          <Button type="button" onClick={record} disabled={!answer.trim()}>
            {t("recordAnswer")}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
