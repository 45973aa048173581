import { Form, useNavigation } from "@remix-run/react";
import { usePageForm } from "~/components/forms/use-page-form";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { deviceTypeFormSchema } from "~/schemas/device-types";

export type DeviceTypeValues = { deviceCode: string; deviceType: string };

/** Add/modify device type: code and type, both required (spec part 2 §5); Conform with the schema the action parses. */
export function DeviceTypeForm({ initial, submitLabel }: { initial: DeviceTypeValues; submitLabel: string }) {
  const { fields, err, formError, formProps, t } = usePageForm({ id: "device-type", schema: deviceTypeFormSchema, ns: "deviceTypes" });
  const navigation = useNavigation();
  return (
    <Form method="post" {...formProps} className="grid max-w-xl gap-4">
      {formError && (
        <Alert variant="destructive">
          <AlertDescription>{formError}</AlertDescription>
        </Alert>
      )}
      {(["deviceCode", "deviceType"] as const).map((k) => (
        <Field key={k} label={t(k)} error={err(fields[k])} required>
          <Input id={`dt-${k}`} name={k} defaultValue={initial[k]} maxLength={100} autoComplete="off" />
        </Field>
      ))}
      <div>
        <Button type="submit" disabled={navigation.state === "submitting"}>
          {submitLabel}
        </Button>
      </div>
    </Form>
  );
}
