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

/** The public screens' submit button and the way back: to sign-in, or where `back` says (the phone app, a page outside the console). */
export function SubmitAndBack({ label, busy, back }: { label: string; busy: boolean; back?: { to: string; label: string } }) {
  const { t } = useTranslation("auth");
  return (
    <>
      <Button type="submit" className="w-full" loading={busy}>
        {label}
      </Button>
      <LinkButton variant="link" size="inline" to={back?.to ?? "/login"} reloadDocument={back !== undefined} className="block text-center">
        {back?.label ?? t("backToLogin")}
      </LinkButton>
    </>
  );
}
