import { useActionData, useNavigation, useSubmit } from "@remix-run/react";
import { startAuthentication, type PublicKeyCredentialRequestOptionsJSON } from "@simplewebauthn/browser";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { translateMessage } from "~/i18n/messages";
import { Button } from "~/components/ui/button";

type Props = { options: PublicKeyCredentialRequestOptionsJSON; companyCode: string; username: string };

/**
 * The code page's "Use a passkey" (decision 0123): the browser's passkey dialog answers the challenge issued
 * after the password, and the page posts the assertion for the server to verify. Shown beside the code field
 * (authenticator code, recovery code, or a code by e-mail or text).
 */
export function PasskeySignIn({ options, companyCode, username }: Props) {
  const { t } = useTranslation("passkeys");
  const submit = useSubmit();
  const navigation = useNavigation();
  const reply = useActionData<{ passkeyError?: string }>();
  const [problem, setProblem] = useState<string | null>(null);
  const busy = navigation.formData?.get("intent") === "passkey";
  const use = () => {
    setProblem(null);
    startAuthentication({ optionsJSON: options })
      .then((response) => submit({ intent: "passkey", companyId: companyCode, userName: username, response: JSON.stringify(response) }, { method: "post" }))
      .catch(() => setProblem(t("browserRefused")));
  };
  const error = problem ?? (reply?.passkeyError ? translateMessage(t, reply.passkeyError, "passkeys") : null);
  return (
    <div className="mb-4 grid gap-2 border-b pb-4">
      {error && (
        <p role="alert" className="text-sm font-medium text-destructive" data-testid="passkey-error">
          {error}
        </p>
      )}
      <Button type="button" className="w-full" onClick={use} loading={busy} data-testid="use-passkey">
        {t("usePasskey")}
      </Button>
      <p className="text-center text-xs text-muted-foreground">{t("orCode")}</p>
    </div>
  );
}

export function PasskeyHint() {
  const { t } = useTranslation("passkeys");
  return <>{t("passkeyHint")}</>;
}
