import { Form, useNavigation } from "@remix-run/react";
import { FormAlert } from "~/components/auth/form-parts";
import { usePageForm } from "~/components/forms/use-page-form";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { NativeSelect } from "~/components/ui/native-select";
import { passRulesSchema } from "~/schemas/visitor-passes";

type Choice = { id: number; label: string };
export type PassRulesValues = { maxDays: number; hostRoleIds: number[]; deviceGroupId: number | null };

/**
 * The company's visitor rules (decision 0096): Conform over `passRulesSchema`, the schema the action and
 * the admin API parse. `readOnly`: someone who may see company settings but not change them.
 */
export function PassRulesForm({ values, roles, groups, readOnly }: { values: PassRulesValues; roles: Choice[]; groups: Choice[]; readOnly: boolean }) {
  const { fields, err, formError, formProps, t } = usePageForm({ id: "visitor-rules", schema: passRulesSchema, ns: "visitorPasses" });
  const navigation = useNavigation();
  const rolesError = err(fields.hostRoleIds);
  return (
    <Form method="post" {...formProps} className="grid max-w-xl gap-6">
      <FormAlert message={formError} />
      {readOnly && <p className="text-sm text-muted-foreground">{t("readOnly")}</p>}
      <fieldset disabled={readOnly} className="grid gap-6">
        <Field label={t("maxDays")} hint={t("maxDaysRuleHint")} error={err(fields.maxDays)} required>
          <Input id="rules-maxDays" name={fields.maxDays.name} type="number" inputMode="numeric" min={1} max={90} defaultValue={values.maxDays} className="w-32" />
        </Field>
        <fieldset
          className="grid gap-2 rounded-lg border p-3"
          aria-describedby={`rules-roles-hint${rolesError ? " rules-roles-error" : ""}`}
          aria-invalid={rolesError ? true : undefined}
        >
          <legend className="px-1 text-sm font-medium">{t("hostRoles")}</legend>
          <p id="rules-roles-hint" className="text-xs text-muted-foreground">
            {t("hostRolesHint")}
          </p>
          {roles.length === 0 && <p className="text-sm text-muted-foreground">{t("noRoles")}</p>}
          <div className="grid max-h-56 gap-1 overflow-y-auto sm:grid-cols-2">
            {roles.map((r) => (
              <label key={r.id} className="flex items-center gap-2 text-sm">
                <input type="checkbox" name={fields.hostRoleIds.name} value={r.id} defaultChecked={values.hostRoleIds.includes(r.id)} className="size-4" />
                {r.label}
              </label>
            ))}
          </div>
          {rolesError && (
            <p id="rules-roles-error" className="text-xs font-medium text-destructive">
              {rolesError}
            </p>
          )}
        </fieldset>
        <Field label={t("boundGroup")} hint={t("boundGroupHint")} error={err(fields.deviceGroupId)}>
          <NativeSelect
            id="rules-deviceGroupId"
            name={fields.deviceGroupId.name}
            defaultValue={values.deviceGroupId ?? ""}
            options={groups.map((g) => ({ value: g.id, label: g.label }))}
          >
            <option value="">{t("anyDoor")}</option>
          </NativeSelect>
        </Field>
      </fieldset>
      {!readOnly && (
        <div>
          <Button type="submit" loading={navigation.state === "submitting"}>
            {t("save")}
          </Button>
        </div>
      )}
    </Form>
  );
}
