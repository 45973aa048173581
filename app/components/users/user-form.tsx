import { Form, useNavigation } from "@remix-run/react";
import { Fragment, useEffect, useState } from "react";
import { PhoneFields, TextFields } from "~/components/forms/bound-fields";
import { usePageForm } from "~/components/forms/use-page-form";
import { Button } from "~/components/ui/button";
import { Checkbox } from "~/components/ui/checkbox";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { NativeSelect } from "~/components/ui/native-select";
import { Switch } from "~/components/ui/switch";
import { Textarea } from "~/components/ui/textarea";
import { CUSTOM_FIELD_LIMITS, type CustomFieldType } from "~/schemas/custom-fields";
import { applyPrivilegeRules, followDisplayName, userFormSchema } from "~/schemas/users";

/** A company's custom field as the form shows it (decision 0095). */
export type FormCustomField = { key: string; label: string; type: CustomFieldType; choices: string[]; required: boolean };

export type UserFormValues = {
  firstName: string;
  lastName: string;
  displayName: string;
  email: string;
  /** The picker's region ('ES'); the form posts its calling code. */
  countryCode: string;
  cell: string;
  userNotes: string;
  isSOInterrupt: boolean;
  isInstaller: boolean;
  isSentinel: boolean;
  isSuperAdmin: boolean;
  isFob: boolean;
  isInactive: boolean;
  /** A new user only: the "Send invite" box (decision 0055). */
  sendInvite?: boolean;
  /** Custom field values by key (decision 0095). */
  customFields?: Record<string, string>;
};

export const EMPTY_USER: UserFormValues = {
  firstName: "",
  lastName: "",
  displayName: "",
  email: "",
  countryCode: "US",
  cell: "",
  userNotes: "",
  isSOInterrupt: true,
  isInstaller: false,
  isSentinel: false,
  isSuperAdmin: false,
  isFob: false,
  isInactive: false,
};

const TEXT_FIELDS = ["firstName", "lastName", "displayName", "email"] as const;
const PRIVILEGES = ["isSOInterrupt", "isInstaller", "isSentinel", "isSuperAdmin"] as const;
// The spec links to external permission help without giving its address; the support FAQs hold it here.
const PERMISSION_HELP = "/support?tab=faqs";

/**
 * The add/modify user form: Conform with the schema the action parses. The values stay controlled
 * (the privilege rules, the display-name default and the +1 cell mask rewrite them as you type);
 * server errors (e.g. a duplicate email) arrive as the action's reply. Save is always enabled: an empty or
 * unchanged form answers with its errors (or saves nothing new) rather than a button that gives no reason.
 */
export function UserForm({ initial, disabled = false, customFields = [] }: { initial: UserFormValues; disabled?: boolean; customFields?: FormCustomField[] }) {
  const { fields, err, formError, formProps, t } = usePageForm({ id: "user-form", schema: userFormSchema, ns: "users" });
  const navigation = useNavigation();
  const saving = navigation.state === "submitting" && navigation.formData?.get("intent") === "save";
  const [values, setValues] = useState(initial);
  useEffect(() => setValues(initial), [initial]);

  const set = <K extends keyof UserFormValues>(key: K, value: UserFormValues[K]) => setValues((v) => applyPrivilegeRules(followDisplayName(v, { ...v, [key]: value })));
  const bound = { values, set, label: (k: string) => t(k), error: (k: keyof typeof fields) => err(fields[k]), disabled };
  const customErrors = fields.customFields.getFieldset();

  return (
    <Form method="post" {...formProps} className="grid gap-6" aria-label={t("save")}>
      <input type="hidden" name="intent" value="save" />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextFields idPrefix="user" keys={TEXT_FIELDS} email="email" {...bound} />
        <PhoneFields idPrefix="user" country="countryCode" phone="cell" region={values.countryCode} {...bound} />
        <Field label={t("notes")} error={err(fields.userNotes)} className="sm:col-span-2">
          <Textarea id="user-notes" name="userNotes" value={values.userNotes} disabled={disabled} onChange={(e) => set("userNotes", e.target.value)} rows={3} />
        </Field>
      </div>

      {customFields.length > 0 && (
        <fieldset key={JSON.stringify(initial.customFields ?? {})} className="grid gap-4 rounded-lg border p-4 sm:grid-cols-2" disabled={disabled} data-testid="custom-fields">
          <legend className="px-1 text-sm font-medium">{t("customFields")}</legend>
          {customFields.map((f) => (
            <Field key={f.key} label={f.label} error={err(customErrors[f.key])} required={f.required}>
              <CustomFieldInput id={`user-cf-${f.key}`} field={f} value={initial.customFields?.[f.key] ?? ""} placeholder={t("choose")} />
            </Field>
          ))}
        </fieldset>
      )}

      <fieldset className="grid gap-3 rounded-lg border p-4" disabled={disabled}>
        <legend className="px-1 text-sm font-medium">
          {t("privileges")}{" "}
          <a href={PERMISSION_HELP} target="_blank" rel="noreferrer" className="text-xs font-normal text-primary hover:underline">
            {t("learnMore")}
          </a>
        </legend>
        {PRIVILEGES.map((k) => (
          <Fragment key={k}>
            <Field label={t(k)} orientation="horizontal">
              <Checkbox id={`user-${k}`} checked={values[k]} disabled={disabled} onCheckedChange={(c) => set(k, c === true)} />
            </Field>
            <input type="hidden" name={k} value={values[k] ? "1" : "0"} />
          </Fragment>
        ))}
        <input type="hidden" name="isFob" value={values.isFob ? "1" : "0"} />
      </fieldset>

      {formError && (
        <p role="alert" className="text-sm text-destructive">
          {formError}
        </p>
      )}
      {values.sendInvite !== undefined && (
        <>
          <Field label={t("sendInvite")} hint={t(values.isSentinel ? "sendInviteConsole" : "sendInvitePhone")} orientation="horizontal">
            <Checkbox id="user-sendInvite" checked={values.sendInvite} disabled={disabled} onCheckedChange={(c) => set("sendInvite", c === true)} />
          </Field>
          <input type="hidden" name="sendInvite" value={values.sendInvite ? "1" : "0"} />
        </>
      )}
      <div className="flex flex-wrap items-center justify-between gap-4">
        <div className="flex items-center gap-2">
          <Switch id="user-isInactive" checked={values.isInactive} disabled={disabled} onCheckedChange={(c) => set("isInactive", c)} />
          <Label htmlFor="user-isInactive">{t("deactivate")}</Label>
          <input type="hidden" name="isInactive" value={values.isInactive ? "1" : "0"} />
        </div>
        <Button type="submit" loading={saving} disabled={disabled}>
          {t("save")}
        </Button>
      </div>
    </Form>
  );
}

/**
 * The input a custom field's type calls for; it posts as `customFields.<key>`. The other props (the id, and
 * the `aria-*` the `Field` around it sets) go to the input itself.
 */
function CustomFieldInput({ field, value, placeholder, ...rest }: { id: string; field: FormCustomField; value: string; placeholder: string }) {
  const name = `customFields.${field.key}`;
  if (field.type === "choice")
    return (
      <NativeSelect {...rest} name={name} defaultValue={value}>
        <option value="">{placeholder}</option>
        {field.choices.map((c) => (
          <option key={c} value={c}>
            {c}
          </option>
        ))}
      </NativeSelect>
    );
  if (field.type === "date") return <Input {...rest} name={name} type="date" defaultValue={value} className="w-48" />;
  if (field.type === "number") return <Input {...rest} name={name} inputMode="decimal" defaultValue={value} maxLength={40} autoComplete="off" className="w-48" />;
  return <Input {...rest} name={name} defaultValue={value} maxLength={CUSTOM_FIELD_LIMITS.value} autoComplete="off" />;
}
