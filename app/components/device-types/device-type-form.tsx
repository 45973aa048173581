import { Form, useNavigation } from "@remix-run/react";
import { useEffect, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { translateMessage } from "~/i18n/messages";
import { deviceTypeFormSchema } from "~/schemas/device-types";

export type DeviceTypeValues = { deviceCode: string; deviceType: string };

/** Add/modify device type: code and type, both required (spec part 2 §5). */
export function DeviceTypeForm({
  initial,
  errors: serverErrors,
  message,
  submitLabel,
}: {
  initial: DeviceTypeValues;
  errors?: Record<string, string[]>;
  message?: string;
  submitLabel: string;
}) {
  const { t } = useTranslation("deviceTypes");
  const navigation = useNavigation();
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<Record<string, string[]>>(serverErrors ?? {});
  useEffect(() => setErrors(serverErrors ?? {}), [serverErrors]);
  const error = (k: string) => errors[k]?.map((m) => translateMessage(t, m, "deviceTypes"));
  const onSubmit = (event: FormEvent) => {
    const r = deviceTypeFormSchema.safeParse(values);
    if (r.success) return;
    event.preventDefault();
    const next: Record<string, string[]> = {};
    for (const issue of r.error.issues) (next[String(issue.path[0])] ??= []).push(issue.message);
    setErrors(next);
  };
  return (
    <Form method="post" onSubmit={onSubmit} noValidate className="grid max-w-xl gap-4">
      {message && !Object.keys(errors).length && (
        <Alert variant="destructive">
          <AlertDescription>{translateMessage(t, message, "deviceTypes")}</AlertDescription>
        </Alert>
      )}
      {(["deviceCode", "deviceType"] as const).map((k) => (
        <Field key={k} label={t(k)} error={error(k)} required>
          <Input
            id={`dt-${k}`}
            name={k}
            value={values[k]}
            maxLength={100}
            autoComplete="off"
            onChange={(e) => {
              setValues((v) => ({ ...v, [k]: e.target.value }));
              setErrors(({ [k]: _, ...rest }) => rest);
            }}
          />
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
