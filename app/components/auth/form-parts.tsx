import { useTranslation } from "react-i18next";
import { Button } from "~/components/ui/button";
import { LinkButton } from "~/components/ui/link-button";

/** The server's refusal, announced to screen readers. */
export function FormAlert({ message }: { message: string | null | undefined }) {
  if (!message) return null;
  return (
    <p role="alert" className="rounded-md border border-destructive/40 bg-destructive/10 px-3 py-2 text-sm text-destructive">
      {message}
    </p>
  );
}

/** The public screens' submit button and the way back to sign-in. */
export function SubmitAndBack({ label, busy }: { label: string; busy: boolean }) {
  const { t } = useTranslation("auth");
  return (
    <>
      <Button type="submit" className="w-full" loading={busy}>
        {label}
      </Button>
      <LinkButton variant="link" size="inline" to="/login" className="block text-center">
        {t("backToLogin")}
      </LinkButton>
    </>
  );
}
