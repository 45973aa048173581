import { usePageForm } from "~/components/forms/use-page-form";
import { getInputProps, type SubmissionResult } from "@conform-to/react";
import { Form, useNavigation } from "@remix-run/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { FormAlert } from "~/components/auth/form-parts";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Checkbox } from "~/components/ui/checkbox";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { NativeSelect } from "~/components/ui/native-select";
import { configureSchema } from "~/schemas/device-lifecycle";

type Props = { deviceId: number; lastResult?: SubmissionResult<string[]> };

/** Configuring an unconfigured device: its names and the settings /deviceDetails shows; saving issues the board secret. */
export function ConfigureForm({ deviceId, lastResult }: Props) {
  const { t } = useTranslation("lifecycle");
  const busy = useNavigation().state === "submitting";
  const [trigger, setTrigger] = useState("Timer");
  const { fields, err, formError, formProps } = usePageForm({ id: "configure-device", schema: configureSchema, ns: "lifecycle", lastResult });
  type TextField = "fullName" | "displayName" | "lockType" | "triggerMode" | "sensor1OpenName" | "sensor1CloseName" | "sensor2OpenName" | "sensor2CloseName";
  const text = (name: TextField, label: string, required = false, max = 100) => (
    <Field label={label} error={err(fields[name])} required={required}>
      <Input {...getInputProps(fields[name], { type: "text" })} key={fields[name].key} maxLength={max} />
    </Field>
  );
  return (
    <Card>
      <CardHeader>
        <CardTitle>{t("configureTitle")}</CardTitle>
        <CardDescription>{t("configureDescription")}</CardDescription>
      </CardHeader>
      <CardContent>
        <Form method="post" {...formProps} className="grid gap-4 md:grid-cols-2">
          <div className="md:col-span-2">
            <FormAlert message={formError} />
          </div>
          <input type="hidden" name="intent" value="configure" />
          <input type="hidden" name="id" value={deviceId} />
          {text("fullName", t("fullName"), true)}
          {text("displayName", t("displayName"), true, 50)}
          {text("lockType", t("lockType"), false, 50)}
          <Field label={t("relockTrigger")} error={err(fields.relockTrigger)}>
            <NativeSelect name={fields.relockTrigger.name} value={trigger} onChange={(e) => setTrigger(e.currentTarget.value)}>
              <option value="Timer">{t("trigger.Timer")}</option>
              <option value="Door Close">{t("trigger.DoorClose")}</option>
            </NativeSelect>
          </Field>
          {trigger === "Timer" ? (
            <Field label={t("relockTimer")} error={err(fields.relockTimer)}>
              <Input {...getInputProps(fields.relockTimer, { type: "number" })} key={fields.relockTimer.key} min={1} max={3600} defaultValue="5" />
            </Field>
          ) : (
            <>
              {text("triggerMode", t("triggerMode"), false, 50)}
              <Field label={t("dnortTime")} error={err(fields.dnortTime)}>
                <Input {...getInputProps(fields.dnortTime, { type: "number" })} key={fields.dnortTime.key} min={1} max={3600} />
              </Field>
            </>
          )}
          <Field label={t("bluetoothPower")} error={err(fields.bluetoothPowerLevel)}>
            <NativeSelect name={fields.bluetoothPowerLevel.name} defaultValue="3" options={[1, 2, 3, 4, 5].map((n) => ({ value: n, label: n }))} />
          </Field>
          <Field label={t("manualUnlock")} orientation="horizontal">
            <Checkbox name={fields.manualLock.name} value="1" />
          </Field>
          {text("sensor1OpenName", t("sensor1Open"), false, 50)}
          {text("sensor1CloseName", t("sensor1Close"), false, 50)}
          {text("sensor2OpenName", t("sensor2Open"), false, 50)}
          {text("sensor2CloseName", t("sensor2Close"), false, 50)}
          <div className="md:col-span-2">
            <Button type="submit" disabled={busy}>
              {t("configure")}
            </Button>
          </div>
        </Form>
      </CardContent>
    </Card>
  );
}
