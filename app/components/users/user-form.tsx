import { Form, useNavigation } from "@remix-run/react";
import { useEffect, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "~/components/ui/button";
import { Checkbox } from "~/components/ui/checkbox";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { Switch } from "~/components/ui/switch";
import { Textarea } from "~/components/ui/textarea";
import { translateMessage } from "~/i18n/messages";
import { applyPrivilegeRules, autoDisplayName, userFormSchema } from "~/schemas/users";
import { issuesByField } from "~/utils/field-errors";

export type UserFormValues = {
  firstName: string;
  lastName: string;
  displayName: string;
  email: string;
  countryCode: string;
  cell: string;
  userNotes: string;
  isSOInterrupt: boolean;
  isInstaller: boolean;
  isSentinel: boolean;
  isSuperAdmin: boolean;
  isFob: boolean;
  isInactive: boolean;
};

export const EMPTY_USER: UserFormValues = {
  firstName: "",
  lastName: "",
  displayName: "",
  email: "",
  countryCode: "001",
  cell: "",
  userNotes: "",
  isSOInterrupt: true,
  isInstaller: false,
  isSentinel: false,
  isSuperAdmin: false,
  isFob: false,
  isInactive: false,
};

const TEXT_FIELDS = ["firstName", "lastName", "displayName", "email", "countryCode", "cell"] as const;
const PRIVILEGES = ["isSOInterrupt", "isInstaller", "isSentinel", "isSuperAdmin"] as const;
// The spec links to external permission help without giving its address; the support FAQs hold it here.
const PERMISSION_HELP = "/support?tab=faqs";

/** 5551234567 → 555-123-4567 (the spec's mask 999-999-9999); longer numbers keep their tail. */
const maskCell = (v: string) => {
  const d = v.replace(/\D/g, "");
  return [d.slice(0, 3), d.slice(3, 6), d.slice(6)].filter(Boolean).join("-");
};

/**
 * The add/modify user form. Checks run in the browser with the same schema the server uses;
 * server errors (e.g. a duplicate email) arrive as `errors`. Save stays disabled until a field changes.
 */
export function UserForm({
  initial,
  errors: serverErrors,
  message,
  disabled = false,
}: {
  initial: UserFormValues;
  errors?: Record<string, string[]>;
  /** A server refusal that names no field (e.g. a missing right). */
  message?: string;
  disabled?: boolean;
}) {
  const { t } = useTranslation("users");
  const navigation = useNavigation();
  const saving = navigation.state === "submitting" && navigation.formData?.get("intent") === "save";
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<Record<string, string[]>>(serverErrors ?? {});
  useEffect(() => setErrors(serverErrors ?? {}), [serverErrors]);
  useEffect(() => setValues(initial), [initial]);

  const dirty = (Object.keys(initial) as (keyof UserFormValues)[]).some((k) => values[k] !== initial[k]);
  const set = <K extends keyof UserFormValues>(key: K, value: UserFormValues[K]) => {
    setValues((v) => applyPrivilegeRules({ ...v, [key]: value }));
    // Typing in a field clears its error (docs/ARCHITECTURE.md §7.2).
    setErrors(({ [key]: _, ...rest }) => rest);
  };

  const onSubmit = (event: FormEvent) => {
    const r = userFormSchema.safeParse(values);
    if (r.success) return;
    event.preventDefault();
    setErrors(issuesByField(r.error.issues));
  };

  const error = (k: string) => errors[k]?.map((m) => translateMessage(t, m, "users"));

  return (
    <Form method="post" onSubmit={onSubmit} noValidate className="grid gap-6" aria-label={t("save")}>
      <input type="hidden" name="intent" value="save" />
      <div className="grid gap-4 sm:grid-cols-2">
        {TEXT_FIELDS.map((k) => (
          <Field key={k} label={t(k)} error={error(k)} required>
            <Input
              id={`user-${k}`}
              name={k}
              value={k === "cell" ? maskCell(values.cell) : values[k]}
              type={k === "email" ? "email" : k === "cell" || k === "countryCode" ? "tel" : "text"}
              inputMode={k === "cell" || k === "countryCode" ? "numeric" : undefined}
              maxLength={k === "countryCode" ? 3 : k === "cell" ? 20 : 200}
              placeholder={k === "cell" ? "999-999-9999" : undefined}
              autoComplete="off"
              disabled={disabled}
              onChange={(e) => set(k, e.target.value)}
              onBlur={k === "firstName" ? () => set("displayName", autoDisplayName(values.firstName, values.lastName)) : undefined}
            />
          </Field>
        ))}
        <Field label={t("notes")} className="sm:col-span-2">
          <Textarea id="user-notes" name="userNotes" value={values.userNotes} disabled={disabled} onChange={(e) => set("userNotes", e.target.value)} rows={3} />
        </Field>
      </div>

      <fieldset className="grid gap-3 rounded-lg border p-4" disabled={disabled}>
        <legend className="px-1 text-sm font-medium">
          {t("privileges")}{" "}
          <a href={PERMISSION_HELP} target="_blank" rel="noreferrer" className="text-xs font-normal text-primary hover:underline">
            {t("learnMore")}
          </a>
        </legend>
        {PRIVILEGES.map((k) => (
          <div key={k} className="flex items-center gap-2">
            <Checkbox id={`user-${k}`} checked={values[k]} disabled={disabled} onCheckedChange={(c) => set(k, c === true)} />
            <Label htmlFor={`user-${k}`}>{t(k)}</Label>
            <input type="hidden" name={k} value={values[k] ? "1" : "0"} />
          </div>
        ))}
        <input type="hidden" name="isFob" value={values.isFob ? "1" : "0"} />
      </fieldset>

      {message && Object.keys(errors).length === 0 && (
        <p role="alert" className="text-sm text-destructive">
          {translateMessage(t, message, "users")}
        </p>
      )}
      <div className="flex flex-wrap items-center justify-between gap-4">
        <div className="flex items-center gap-2">
          <Switch id="user-isInactive" checked={values.isInactive} disabled={disabled} onCheckedChange={(c) => set("isInactive", c)} />
          <Label htmlFor="user-isInactive">{t("deactivate")}</Label>
          <input type="hidden" name="isInactive" value={values.isInactive ? "1" : "0"} />
        </div>
        <Button type="submit" loading={saving} disabled={disabled || !dirty}>
          {t("save")}
        </Button>
      </div>
    </Form>
  );
}

/** Reads the form post back into the service's input. */
export function userFormFromData(form: FormData): UserFormValues {
  const text = (k: string) => String(form.get(k) ?? "");
  const flag = (k: string) => form.get(k) === "1";
  return {
    firstName: text("firstName"),
    lastName: text("lastName"),
    displayName: text("displayName"),
    email: text("email"),
    countryCode: text("countryCode"),
    cell: text("cell"),
    userNotes: text("userNotes"),
    isSOInterrupt: flag("isSOInterrupt"),
    isInstaller: flag("isInstaller"),
    isSentinel: flag("isSentinel"),
    isSuperAdmin: flag("isSuperAdmin"),
    isFob: flag("isFob"),
    isInactive: flag("isInactive"),
  };
}
