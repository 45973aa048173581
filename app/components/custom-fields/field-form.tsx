import { Form, useNavigation } from "@remix-run/react";
import { useState } from "react";
import { usePageForm } from "~/components/forms/use-page-form";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Checkbox } from "~/components/ui/checkbox";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { NativeSelect } from "~/components/ui/native-select";
import { Textarea } from "~/components/ui/textarea";
import { CUSTOM_FIELD_LIMITS, CUSTOM_FIELD_TYPES, customFieldSchema, type CustomFieldType } from "~/schemas/custom-fields";

export type FieldFormValues = { key: string; label: string; type: CustomFieldType; choices: string[]; required: boolean; showInList: boolean; position: number };
export const EMPTY_FIELD: FieldFormValues = { key: "", label: "", type: "text", choices: [], required: false, showInList: false, position: 0 };

/**
 * A custom field's definition (decision 0095): Conform over `customFieldSchema`, the schema the action and the
 * admin API parse. Choices are one per line and shown for a choice field only.
 */
export function CustomFieldForm({ initial, submitLabel }: { initial: FieldFormValues; submitLabel: string }) {
  const { fields, err, formError, formProps, t } = usePageForm({ id: "custom-field", schema: customFieldSchema, ns: "customFields" });
  const navigation = useNavigation();
  const [type, setType] = useState<CustomFieldType>(initial.type);
  return (
    <Form method="post" {...formProps} className="grid max-w-xl gap-4">
      {formError && (
        <Alert variant="destructive">
          <AlertDescription>{formError}</AlertDescription>
        </Alert>
      )}
      <Field label={t("label")} error={err(fields.label)} required>
        <Input id="field-label" name={fields.label.name} defaultValue={initial.label} maxLength={CUSTOM_FIELD_LIMITS.label} autoComplete="off" />
      </Field>
      <Field label={t("key")} hint={t("keyHint")} error={err(fields.key)} required>
        <Input id="field-key" name={fields.key.name} defaultValue={initial.key} maxLength={CUSTOM_FIELD_LIMITS.key} autoComplete="off" spellCheck={false} />
      </Field>
      <Field label={t("type")} error={err(fields.type)} required>
        <NativeSelect id="field-type" name={fields.type.name} value={type} onChange={(e) => setType(e.target.value as CustomFieldType)}>
          {CUSTOM_FIELD_TYPES.map((k) => (
            <option key={k} value={k}>
              {t(`type.${k}`)}
            </option>
          ))}
        </NativeSelect>
      </Field>
      {type === "choice" && (
        <Field label={t("choices")} hint={t("choicesHint")} error={err(fields.choices)} required>
          <Textarea id="field-choices" name={fields.choices.name} defaultValue={initial.choices.join("\n")} rows={5} />
        </Field>
      )}
      <Field label={t("position")} hint={t("positionHint")} error={err(fields.position)}>
        <Input id="field-position" name={fields.position.name} type="number" min={0} max={1000} defaultValue={initial.position} className="w-32" />
      </Field>
      <Field label={t("required")} hint={t("requiredHint")} orientation="horizontal">
        <Checkbox id="field-required" name={fields.required.name} value="1" defaultChecked={initial.required} />
      </Field>
      <Field label={t("showInList")} hint={t("showInListHint")} orientation="horizontal">
        <Checkbox id="field-showInList" name={fields.showInList.name} value="1" defaultChecked={initial.showInList} />
      </Field>
      <div>
        <Button type="submit" loading={navigation.state === "submitting"}>
          {submitLabel}
        </Button>
      </div>
    </Form>
  );
}
