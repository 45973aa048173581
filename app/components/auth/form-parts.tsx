import { Form } from "@remix-run/react";
import type { FormEventHandler, ReactNode } from "react";
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

/** A sign-in or password screen's form: Conform's props from `useAuthForm`, the server's refusal first, then the fields. */
export function AuthForm({
  formProps,
  error,
  className = "space-y-4",
  children,
}: {
  formProps: { id: string; onSubmit: FormEventHandler<HTMLFormElement>; noValidate: boolean };
  error?: string | null;
  className?: string;
  children: ReactNode;
}) {
  return (
    <Form method="post" {...formProps} className={className}>
      <FormAlert message={error} />
      {children}
    </Form>
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
