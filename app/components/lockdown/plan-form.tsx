import { Form, useNavigation } from "@remix-run/react";
import { useState } from "react";
import { FormAlert } from "~/components/auth/form-parts";
import { usePageForm } from "~/components/forms/use-page-form";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { NativeSelect } from "~/components/ui/native-select";
import { LOCKDOWN_MODES, LOCKDOWN_SCOPES, lockdownPlanModifySchema, lockdownPlanSchema, type LockdownMode, type LockdownScope } from "~/schemas/lockdown";

export type LockdownPlanValues = {
  id?: number;
  name: string;
  mode: LockdownMode;
  scope: LockdownScope;
  scopeIds: number[];
  exemptUserIds: number[];
  exemptRoleIds: number[];
  panicDoorIds: number[];
  phoneTriggerUserIds: number[];
  phoneTriggerRoleIds: number[];
  durationMinutes: number | null;
};
type Option = { id: number; label: string };

/** A list of ticks posting `name` once per ticked id. */
function Ticks({ name, legend, options, checked, error, empty }: { name: string; legend: string; options: Option[]; checked: number[]; error?: string; empty: string }) {
  return (
    <fieldset className="grid gap-2 rounded-lg border p-3" aria-invalid={error ? true : undefined}>
      <legend className="px-1 text-sm font-medium">{legend}</legend>
      {options.length === 0 && <p className="text-sm text-muted-foreground">{empty}</p>}
      <div className="grid max-h-56 gap-1 overflow-y-auto sm:grid-cols-2">
        {options.map((o) => (
          <label key={o.id} className="flex items-center gap-2 text-sm">
            <input type="checkbox" name={name} value={o.id} defaultChecked={checked.includes(o.id)} className="size-4" />
            {o.label}
          </label>
        ))}
      </div>
      {error && <p className="text-sm text-destructive">{error}</p>}
    </fieldset>
  );
}

/** Add/modify a lockdown or evacuation plan (issue 31). */
export function LockdownPlanForm({
  values,
  options,
  submitLabel,
}: {
  values: LockdownPlanValues;
  options: { groups: Option[]; doors: Option[]; users: Option[]; roles: Option[] };
  submitLabel: string;
}) {
  // The schema the action parses: modify posts the plan's id too.
  const { fields, err, formError, formProps, t } = usePageForm({ id: "lockdown-plan", schema: values.id == null ? lockdownPlanSchema : lockdownPlanModifySchema, ns: "lockdown" });
  const [scope, setScope] = useState<LockdownScope>(values.scope);
  const navigation = useNavigation();
  return (
    <Form method="post" {...formProps} className="grid max-w-3xl gap-4">
      <FormAlert message={formError} />
      {values.id != null && <input type="hidden" name="id" value={values.id} />}
      <Field label={t("name")} error={err(fields.name)} required>
        <Input id="lockdown-name" name="name" defaultValue={values.name} maxLength={100} autoComplete="off" />
      </Field>
      <Field label={t("mode")} error={err(fields.mode)} hint={t("modeHint")}>
        <NativeSelect id="lockdown-mode" name="mode" defaultValue={values.mode} options={LOCKDOWN_MODES.map((m) => ({ value: m, label: t(`mode.${m}`) }))} />
      </Field>
      <Field label={t("scope")} error={err(fields.scope)}>
        <NativeSelect
          id="lockdown-scope"
          name="scope"
          value={scope}
          onChange={(e) => setScope(e.target.value as LockdownScope)}
          options={LOCKDOWN_SCOPES.map((s) => ({ value: s, label: t(`scope.${s}`) }))}
        />
      </Field>
      {scope === "groups" && (
        <Ticks
          name="scopeIds"
          legend={t("scopeGroups")}
          options={options.groups}
          checked={values.scope === "groups" ? values.scopeIds : []}
          error={err(fields.scopeIds)}
          empty={t("none")}
        />
      )}
      {scope === "doors" && (
        <Ticks
          name="scopeIds"
          legend={t("scopeDoors")}
          options={options.doors}
          checked={values.scope === "doors" ? values.scopeIds : []}
          error={err(fields.scopeIds)}
          empty={t("none")}
        />
      )}
      <Ticks name="exemptRoleIds" legend={t("exemptRoles")} options={options.roles} checked={values.exemptRoleIds} error={err(fields.exemptRoleIds)} empty={t("none")} />
      <Ticks name="exemptUserIds" legend={t("exemptUsers")} options={options.users} checked={values.exemptUserIds} error={err(fields.exemptUserIds)} empty={t("none")} />
      <Ticks name="panicDoorIds" legend={t("panicDoors")} options={options.doors} checked={values.panicDoorIds} error={err(fields.panicDoorIds)} empty={t("none")} />
      <Ticks
        name="phoneTriggerRoleIds"
        legend={t("phoneTriggerRoles")}
        options={options.roles}
        checked={values.phoneTriggerRoleIds}
        error={err(fields.phoneTriggerRoleIds)}
        empty={t("none")}
      />
      <Ticks
        name="phoneTriggerUserIds"
        legend={t("phoneTriggerUsers")}
        options={options.users}
        checked={values.phoneTriggerUserIds}
        error={err(fields.phoneTriggerUserIds)}
        empty={t("none")}
      />
      <Field label={t("durationMinutes")} error={err(fields.durationMinutes)} hint={t("durationHint")}>
        <Input id="lockdown-duration" name="durationMinutes" type="number" min={1} max={10080} defaultValue={values.durationMinutes ?? ""} />
      </Field>
      <div>
        <Button type="submit" disabled={navigation.state === "submitting"}>
          {submitLabel}
        </Button>
      </div>
    </Form>
  );
}
