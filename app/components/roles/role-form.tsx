import { Form, useNavigation } from "@remix-run/react";
import { useEffect, useState } from "react";
import { usePageForm } from "~/components/forms/use-page-form";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Checkbox } from "~/components/ui/checkbox";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { Textarea } from "~/components/ui/textarea";
import { ROLE_ACTIONS, roleFormSchema, type RoleAction } from "~/schemas/roles";
import type { ModuleKey } from "~/utils/permissions";

export type RoleFormValues = {
  title: string;
  description: string;
  actions: Record<RoleAction, boolean>;
  modules: ModuleKey[];
};

export const EMPTY_ROLE: RoleFormValues = {
  title: "",
  description: "",
  actions: { permissionAll: false, permissionAdd: false, permissionModify: false, permissionView: true, permissionDelete: false },
  modules: [],
};

/**
 * Add/modify role: title, description, the action rights and the modules. Only what the signed-in
 * user holds can be ticked (the server refuses anything else too). Conform with the schema the action
 * parses; the ticks stay controlled and post as booleans (`true` when on) and the `modules` list.
 */
export function RoleForm({
  initial,
  grantable,
  grantableActions,
  submitLabel,
}: {
  initial: RoleFormValues;
  grantable: ModuleKey[];
  grantableActions: Record<RoleAction, boolean>;
  submitLabel: string;
}) {
  const { fields, err, formError, formProps, t } = usePageForm({ id: "role", schema: roleFormSchema, ns: "roles" });
  const navigation = useNavigation();
  const saving = navigation.state === "submitting";
  const [values, setValues] = useState(initial);
  useEffect(() => setValues(initial), [initial]);

  // Modules the role holds but the editor may not grant stay visible (read-only).
  const shown = [...grantable, ...initial.modules.filter((m) => !grantable.includes(m))];
  const modulesError = err(fields.modules);

  return (
    <Form method="post" {...formProps} className="grid max-w-3xl gap-6">
      {formError && (
        <Alert variant="destructive">
          <AlertDescription>{formError}</AlertDescription>
        </Alert>
      )}
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label={t("roleTitle")} error={err(fields.title)} required>
          <Input id="role-title" name="title" value={values.title} maxLength={100} autoComplete="off" onChange={(e) => setValues((v) => ({ ...v, title: e.target.value }))} />
        </Field>
        <Field label={t("roleDescription")} error={err(fields.description)} className="sm:col-span-2">
          <Textarea
            id="role-description"
            name="description"
            value={values.description}
            maxLength={500}
            onChange={(e) => setValues((v) => ({ ...v, description: e.target.value }))}
          />
        </Field>
      </div>
      <fieldset className="grid gap-2 rounded-lg border p-4">
        <legend className="px-1 text-sm font-semibold">{t("actions")}</legend>
        <div className="flex flex-wrap gap-x-6 gap-y-2">
          {ROLE_ACTIONS.map((f) => (
            <Field key={f} label={t(`action.${f}`)} orientation="horizontal">
              <Checkbox
                id={`role-${f}`}
                checked={values.actions[f]}
                disabled={!grantableActions[f] && !values.actions[f]}
                onCheckedChange={(c) => setValues((v) => ({ ...v, actions: { ...v.actions, [f]: c === true } }))}
              />
            </Field>
          ))}
        </div>
        {ROLE_ACTIONS.filter((f) => values.actions[f]).map((f) => (
          <input key={f} type="hidden" name={f} value="true" />
        ))}
      </fieldset>
      <fieldset className="grid gap-2 rounded-lg border p-4" aria-describedby={modulesError ? "role-modules-error" : undefined}>
        <legend className="px-1 text-sm font-semibold">{t("modules")}</legend>
        <div className="grid gap-2 sm:grid-cols-3">
          {shown.map((m) => (
            <Field key={m} label={t(`module.${m}`, { defaultValue: m })} orientation="horizontal">
              <Checkbox
                id={`role-module-${m}`}
                checked={values.modules.includes(m)}
                disabled={!grantable.includes(m)}
                onCheckedChange={(c) => setValues((v) => ({ ...v, modules: c === true ? [...v.modules, m] : v.modules.filter((x) => x !== m) }))}
              />
            </Field>
          ))}
        </div>
        {values.modules.map((m) => (
          <input key={m} type="hidden" name="modules" value={m} />
        ))}
        {modulesError && (
          <p id="role-modules-error" className="text-xs font-medium text-destructive">
            {modulesError}
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
