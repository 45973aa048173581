import { Form, useNavigation } from "@remix-run/react";
import { useState } from "react";
import { usePageForm } from "~/components/forms/use-page-form";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Checkbox } from "~/components/ui/checkbox";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { NativeSelect } from "~/components/ui/native-select";
import { API_KEY_LIFETIMES, apiKeyFormSchema } from "~/schemas/api-keys";
import type { ModuleKey } from "~/utils/permissions";

const ACTIONS = ["canAdd", "canModify", "canDelete"] as const;
type KeyAction = (typeof ACTIONS)[number];

/**
 * A new API key: its name, the modules it reads (view is always there), the actions it may take and how
 * long it lasts. Only what the signed-in person holds can be ticked; the server refuses anything else too.
 */
export function ApiKeyForm({ grantable, grantableActions }: { grantable: ModuleKey[]; grantableActions: Record<KeyAction, boolean> }) {
  const { fields, err, formError, formProps, t } = usePageForm({ id: "api-key", schema: apiKeyFormSchema, ns: "apiKeys" });
  const saving = useNavigation().state === "submitting";
  const [modules, setModules] = useState<ModuleKey[]>([]);
  const modulesError = err(fields.modules);
  return (
    <Form method="post" {...formProps} className="grid max-w-3xl gap-6">
      {formError && (
        <Alert variant="destructive">
          <AlertDescription>{formError}</AlertDescription>
        </Alert>
      )}
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label={t("name")} error={err(fields.name)} required>
          <Input id="api-key-name" name={fields.name.name} maxLength={100} autoComplete="off" />
        </Field>
        <Field label={t("lifetime")} error={err(fields.lifetime)}>
          <NativeSelect
            id="api-key-lifetime"
            name={fields.lifetime.name}
            defaultValue="never"
            options={API_KEY_LIFETIMES.map((d) => ({ value: d, label: d === "never" ? t("never") : t("days", { count: Number(d) }) }))}
          />
        </Field>
      </div>
      <fieldset className="grid gap-2 rounded-lg border p-4">
        <legend className="px-1 text-sm font-semibold">{t("actions")}</legend>
        <p className="text-sm text-muted-foreground">{t("viewAlways")}</p>
        <div className="flex flex-wrap gap-x-6 gap-y-2">
          {ACTIONS.map((a) => (
            <Field key={a} label={t(a)} orientation="horizontal">
              <Checkbox id={`api-key-${a}`} name={a} value="true" disabled={!grantableActions[a]} />
            </Field>
          ))}
        </div>
      </fieldset>
      <fieldset className="grid gap-2 rounded-lg border p-4" aria-describedby={modulesError ? "api-key-modules-error" : undefined}>
        <legend className="px-1 text-sm font-semibold">{t("modules")}</legend>
        <div className="grid gap-2 sm:grid-cols-3">
          {grantable.map((m) => (
            <Field key={m} label={t(`roles:module.${m}`, { defaultValue: m })} orientation="horizontal">
              <Checkbox id={`api-key-module-${m}`} checked={modules.includes(m)} onCheckedChange={(c) => setModules((v) => (c === true ? [...v, m] : v.filter((x) => x !== m)))} />
            </Field>
          ))}
        </div>
        {modules.map((m) => (
          <input key={m} type="hidden" name="modules" value={m} />
        ))}
        {modulesError && (
          <p id="api-key-modules-error" className="text-xs font-medium text-destructive">
            {modulesError}
          </p>
        )}
      </fieldset>
      <div>
        <Button type="submit" disabled={saving}>
          {t("create")}
        </Button>
      </div>
    </Form>
  );
}
