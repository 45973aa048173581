import { getInputProps, type FieldMetadata } from "@conform-to/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Field } from "~/components/ui/field";
import { PasswordInput } from "./password-input";
import { PasswordRules } from "./password-rules";

/** New password, its confirmation and the rules they must meet, ticking as you type (set-password link, expired reset, change). */
export function NewPasswordFields({
  password,
  confirm,
  err,
  autoFocus,
}: {
  /* eslint-disable @typescript-eslint/no-explicit-any -- fields of any form whose values include these two */
  password: FieldMetadata<any, any, string[]>;
  confirm: FieldMetadata<any, any, string[]>;
  /* eslint-enable @typescript-eslint/no-explicit-any */
  /** The page form's `err`: a field's first error, translated, once it should show. */
  err: (field: { errors?: string[]; dirty: boolean }) => string | undefined;
  autoFocus?: boolean;
}) {
  const { t } = useTranslation("auth");
  const [typed, setTyped] = useState("");
  return (
    <>
      <Field label={t("newPassword")} error={err(password)}>
        <PasswordInput {...getInputProps(password, { type: "password" })} autoComplete="new-password" autoFocus={autoFocus} onInput={(e) => setTyped(e.currentTarget.value)} />
      </Field>
      <Field label={t("confirmPassword")} error={err(confirm)}>
        <PasswordInput {...getInputProps(confirm, { type: "password" })} autoComplete="new-password" />
      </Field>
      <PasswordRules password={typed} />
    </>
  );
}
