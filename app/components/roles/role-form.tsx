import { Form, useNavigation } from "@remix-run/react";
import { useEffect, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Checkbox } from "~/components/ui/checkbox";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { Textarea } from "~/components/ui/textarea";
import { translateMessage } from "~/i18n/messages";
import { ACTION_FLAGS, roleFormSchema, type ActionFlag } from "~/schemas/roles";
import type { ModuleKey } from "~/utils/permissions";

export type RoleFormValues = {
  role_title: string;
  role_description: string;
  actions: Record<ActionFlag, boolean>;
  modules: ModuleKey[];
};

export const EMPTY_ROLE: RoleFormValues = {
  role_title: "",
  role_description: "",
  actions: { permission_all: false, permission_add: false, permission_modifly: false, permission_view: true, permission_delete: false },
  modules: [],
};

/** The form's post → the service's input (spec names; permission_module as {module: true}). */
export function roleInputFromForm(form: FormData) {
  const input: Record<string, unknown> = {
    role_title: String(form.get("role_title") ?? ""),
    role_description: String(form.get("role_description") ?? ""),
    permission_module: Object.fromEntries(form.getAll("module").map((m) => [String(m), true])),
  };
  for (const f of ACTION_FLAGS) input[f] = form.get(f) === "1";
  return input;
}

/**
 * Add/modify role: title, description, the action rights and the modules. Only what the signed-in
 * user holds can be ticked (the server refuses anything else too).
 */
export function RoleForm({
  initial,
  grantable,
  grantableActions,
  errors: serverErrors,
  message,
  submitLabel,
}: {
  initial: RoleFormValues;
  grantable: ModuleKey[];
  grantableActions: Record<ActionFlag, boolean>;
  errors?: Record<string, string[]>;
  message?: string;
  submitLabel: string;
}) {
  const { t } = useTranslation("roles");
  const navigation = useNavigation();
  const saving = navigation.state === "submitting";
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<Record<string, string[]>>(serverErrors ?? {});
  useEffect(() => setErrors(serverErrors ?? {}), [serverErrors]);
  useEffect(() => setValues(initial), [initial]);

  // Modules the role holds but the editor may not grant stay visible (read-only).
  const shown = [...grantable, ...initial.modules.filter((m) => !grantable.includes(m))];

  const onSubmit = (event: FormEvent) => {
    const r = roleFormSchema.safeParse({
      role_title: values.role_title,
      role_description: values.role_description,
      ...values.actions,
      permission_module: Object.fromEntries(values.modules.map((m) => [m, true])),
    });
    if (r.success) return;
    event.preventDefault();
    const next: Record<string, string[]> = {};
    for (const issue of r.error.issues) (next[String(issue.path[0])] ??= []).push(issue.message);
    setErrors(next);
  };
  const error = (k: string) => errors[k]?.map((m) => translateMessage(t, m, "roles"));
  const clearPermissionError = () => setErrors(({ permission_module: _, ...rest }) => rest);

  return (
    <Form method="post" onSubmit={onSubmit} noValidate className="grid max-w-3xl gap-6">
      {message && !Object.keys(errors).length && (
        <Alert variant="destructive">
          <AlertDescription>{translateMessage(t, message, "roles")}</AlertDescription>
        </Alert>
      )}
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label={t("roleTitle")} error={error("role_title")} required>
          <Input
            id="role-title"
            name="role_title"
            value={values.role_title}
            maxLength={100}
            autoComplete="off"
            onChange={(e) => {
              setValues((v) => ({ ...v, role_title: e.target.value }));
              setErrors(({ role_title: _, ...rest }) => rest);
            }}
          />
        </Field>
        <Field label={t("roleDescription")} className="sm:col-span-2">
          <Textarea
            id="role-description"
            name="role_description"
            value={values.role_description}
            maxLength={500}
            onChange={(e) => setValues((v) => ({ ...v, role_description: e.target.value }))}
          />
        </Field>
      </div>
      <fieldset className="grid gap-2 rounded-lg border p-4">
        <legend className="px-1 text-sm font-semibold">{t("actions")}</legend>
        <div className="flex flex-wrap gap-x-6 gap-y-2">
          {ACTION_FLAGS.map((f) => (
            <div key={f} className="flex items-center gap-2">
              <Checkbox
                id={`role-${f}`}
                checked={values.actions[f]}
                disabled={!grantableActions[f] && !values.actions[f]}
                onCheckedChange={(c) => {
                  setValues((v) => ({ ...v, actions: { ...v.actions, [f]: c === true } }));
                  clearPermissionError();
                }}
              />
              <Label htmlFor={`role-${f}`}>{t(`action.${f}`)}</Label>
              <input type="hidden" name={f} value={values.actions[f] ? "1" : "0"} />
            </div>
          ))}
        </div>
      </fieldset>
      <fieldset className="grid gap-2 rounded-lg border p-4" aria-describedby={errors.permission_module ? "role-modules-error" : undefined}>
        <legend className="px-1 text-sm font-semibold">{t("modules")}</legend>
        <div className="grid gap-2 sm:grid-cols-3">
          {shown.map((m) => (
            <div key={m} className="flex items-center gap-2">
              <Checkbox
                id={`role-module-${m}`}
                checked={values.modules.includes(m)}
                disabled={!grantable.includes(m)}
                onCheckedChange={(c) => {
                  setValues((v) => ({ ...v, modules: c === true ? [...v.modules, m] : v.modules.filter((x) => x !== m) }));
                  clearPermissionError();
                }}
              />
              <Label htmlFor={`role-module-${m}`}>{t(`module.${m}`, { defaultValue: m })}</Label>
            </div>
          ))}
        </div>
        {values.modules.map((m) => (
          <input key={m} type="hidden" name="module" value={m} />
        ))}
        {errors.permission_module && (
          <p id="role-modules-error" className="text-xs font-medium text-destructive">
            {error("permission_module")?.[0]}
          </p>
        )}
      </fieldset>
      <div>
        <Button type="submit" disabled={saving}>
          {submitLabel}
        </Button>
      </div>
    </Form>
  );
}
