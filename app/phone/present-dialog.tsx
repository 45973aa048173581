import { useEffect, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "~/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "~/components/ui/dialog";
import { Field } from "~/components/ui/field";
import { NativeSelect } from "~/components/ui/native-select";
import { Textarea } from "~/components/ui/textarea";
import { parseBoardAnswer, type BoardAnswer } from "~/schemas/mobile";
import { credentialQr } from "./credential-qr";
import type { HeldKey, PendingEvent } from "./phone-store";

/**
 * Presenting a key to a door. Bluetooth is simulated (gateway/README.md, "Phone app and signed
 * credentials"): the credential is shown as a QR code and can be copied; the board simulator reads it
 * (`npm run board -- verify … --credential <token>` offline, or `--present <token>` on a connected board)
 * and prints its one-line answer, which pasted back here is shown and recorded as an unlock attempt,
 * reported when the phone is online.
 */
export function PresentDialog({
  heldKey,
  lockdownState,
  open,
  onOpenChange,
  onResult,
}: {
  /** A held key, or a guest's pass shaped as one (guest-pass.tsx). */
  heldKey: Pick<HeldKey, "id" | "name" | "doors" | "credential">;
  /** The company's signed lockdown state: a board cut off from its gateway learns a newer one from it (PROTOCOL.md). */
  lockdownState: string | null;
  open: boolean;
  onOpenChange: (o: boolean) => void;
  onResult: (e: PendingEvent, answer: BoardAnswer) => void;
}) {
  const { t } = useTranslation("mobile");
  const doorId = useId();
  const [answer, setAnswer] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [copied, setCopied] = useState<boolean | null>(null);
  const [qr, setQr] = useState<string | null>(null);
  const [door, setDoor] = useState(heldKey.doors[0]?.id ?? 0);
  const token = heldKey.credential?.token ?? "";
  const command =
    `npm run board -- verify --jwks keys.json --door ${door} --at ${new Date().toISOString()} --credential ${token}` +
    (lockdownState ? ` --lockdown lockdown.json --lockdown-state ${lockdownState}` : "");

  useEffect(() => {
    let live = true;
    credentialQr(token).then(
      (url) => live && setQr(url),
      () => live && setQr(null),
    );
    return () => {
      live = false;
    };
  }, [token]);

  function copy() {
    const done = (ok: boolean) => setCopied(ok);
    if (!navigator.clipboard) return done(false);
    navigator.clipboard.writeText(token).then(
      () => done(true),
      () => done(false),
    );
  }

  function record() {
    const parsed = parseBoardAnswer(answer);
    if (!parsed) {
      setError(t("answerInvalid"));
      return;
    }
    onResult(
      {
        eventId: `u-${crypto.randomUUID()}`,
        type: "unlock",
        deviceId: door,
        keyId: heldKey.id,
        allowed: parsed.allowed,
        reason: parsed.reason,
        credentialId: heldKey.credential?.id,
        at: Date.now(),
      },
      parsed,
    );
    setAnswer("");
    setError(null);
    onOpenChange(false);
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-h-[100dvh] overflow-y-auto">
        <DialogHeader>
          <DialogTitle>{t("presentTitle", { name: heldKey.name })}</DialogTitle>
          <DialogDescription>{t("presentHelp")}</DialogDescription>
        </DialogHeader>
        {heldKey.doors.length > 1 && (
          <Field label={t("door")} id={doorId}>
            <NativeSelect value={door} onChange={(e) => setDoor(Number(e.target.value))} options={heldKey.doors.map((d) => ({ value: d.id, label: d.name }))} />
          </Field>
        )}
        {qr ? (
          <img src={qr} alt={t("qrAlt", { name: heldKey.name })} className="mx-auto aspect-square w-full max-w-72 bg-white" data-testid="credential-qr" />
        ) : (
          <p className="text-sm text-muted-foreground">{t("qrUnavailable")}</p>
        )}
        <Button type="button" variant="outline" onClick={copy}>
          {t("copy")}
        </Button>
        <p role="status" className="text-sm" data-testid="copy-status">
          {copied === true ? t("copied") : copied === false ? t("copyFailed") : ""}
        </p>
        <details className="text-sm">
          <summary className="cursor-pointer">{t("showCredential")}</summary>
          <Field label={t("credential")}>
            <Textarea readOnly value={token} rows={3} className="font-mono text-xs" />
          </Field>
          <Field label={t("boardCommand")}>
            <Textarea readOnly value={command} rows={3} className="font-mono text-xs" />
          </Field>
        </details>
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
