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
import { configureFormSchema, configureSchema, HELD_OPEN_MAX, HELD_OPEN_MIN, LOCK_TYPES } from "~/schemas/device-lifecycle";
import type { DeviceDetails } from "~/services/devices.server";

type Device = DeviceDetails["device"];
type Props = {
  /** "configure" names an unconfigured device and issues its secret; "edit" changes a configured one's settings in place. */
  intent: "configure" | "edit";
  device: Device;
  lastResult?: SubmissionResult<string[]>;
  /** Edit only: the way out without saving. */
  onCancel?: () => void;
};

/**
 * A device's names and settings, starting from what the device holds (the settings card below shows
 * the same values), so a transferred board's names and lock type need no retyping.
 */
export function DeviceSettingsForm({ intent, device, lastResult, onCancel }: Props) {
  const { t } = useTranslation("lifecycle");
  const busy = useNavigation().state === "submitting";
  const [trigger, setTrigger] = useState(device.relockTrigger === "Door Close" ? "Door Close" : "Timer");
  const { fields, err, formError, formProps } = usePageForm({
    id: `${intent}-device`,
    schema: intent === "configure" ? configureFormSchema : configureSchema,
    ns: "lifecycle",
    lastResult,
    defaultValue: {
      fullName: device.fullName,
      displayName: device.displayName,
      triggerMode: device.triggerMode,
      relockTimer: device.relockTimer ?? 5,
      dnortTime: device.dnortTime ?? undefined,
      sensor1OpenName: device.sensor1OpenName,
      sensor1CloseName: device.sensor1CloseName,
      sensor2OpenName: device.sensor2OpenName,
      sensor2CloseName: device.sensor2CloseName,
      heldOpenSeconds: device.heldOpenSeconds ?? "",
    },
  });
  type TextField = "fullName" | "displayName" | "triggerMode" | "sensor1OpenName" | "sensor1CloseName" | "sensor2OpenName" | "sensor2CloseName";
  const text = (name: TextField, label: string, required = false, max = 100) => (
    <Field label={label} error={err(fields[name])} required={required}>
      <Input {...getInputProps(fields[name], { type: "text" })} key={fields[name].key} maxLength={max} />
    </Field>
  );
  // A value stored before lock types became a list stays visible until another is chosen.
  const lockTypes: string[] = device.lockType && !(LOCK_TYPES as readonly string[]).includes(device.lockType) ? [device.lockType, ...LOCK_TYPES] : [...LOCK_TYPES];
  const edit = intent === "edit";
  return (
    <Card>
      <CardHeader>
        <CardTitle>{t(edit ? "editTitle" : "configureTitle")}</CardTitle>
        <CardDescription>{t(edit ? "editDescription" : "configureDescription")}</CardDescription>
      </CardHeader>
      <CardContent>
        <Form method="post" {...formProps} className="grid gap-4 md:grid-cols-2">
          <div className="md:col-span-2">
            <FormAlert message={formError} />
          </div>
          <input type="hidden" name="intent" value={intent} />
          <input type="hidden" name="id" value={device.id} />
          {text("fullName", t("fullName"), true)}
          {text("displayName", t("displayName"), true, 50)}
          <Field label={t("lockType")} error={err(fields.lockType)} required={!edit}>
            <NativeSelect
              name={fields.lockType.name}
              defaultValue={device.lockType}
              options={lockTypes.map((v) => ({ value: v, label: t(`lockTypes.${v}`, { defaultValue: v }) }))}
            >
              {/* A new door's lock type is chosen (configureFormSchema); a configured one may stay unset. */}
              <option value="">{t(edit ? "lockTypeNone" : "lockTypeChoose")}</option>
            </NativeSelect>
          </Field>
          <Field label={t("relockTrigger")} error={err(fields.relockTrigger)}>
            <NativeSelect name={fields.relockTrigger.name} value={trigger} onChange={(e) => setTrigger(e.currentTarget.value)}>
              <option value="Timer">{t("trigger.Timer")}</option>
              <option value="Door Close">{t("trigger.DoorClose")}</option>
            </NativeSelect>
          </Field>
          {trigger === "Timer" ? (
            <Field label={t("relockTimer")} error={err(fields.relockTimer)}>
              <Input {...getInputProps(fields.relockTimer, { type: "number" })} key={fields.relockTimer.key} min={1} max={3600} />
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
            <NativeSelect name={fields.bluetoothPowerLevel.name} defaultValue={String(device.bluetoothPowerLevel)} options={[1, 2, 3, 4, 5].map((n) => ({ value: n, label: n }))} />
          </Field>
          <Field label={t("manualUnlock")} orientation="horizontal">
            <Checkbox name={fields.manualLock.name} value="1" defaultChecked={device.manualLock} />
          </Field>
          <Field label={t("heldOpenSeconds")} hint={t("heldOpenHint")} error={err(fields.heldOpenSeconds)}>
            <Input {...getInputProps(fields.heldOpenSeconds, { type: "number" })} key={fields.heldOpenSeconds.key} min={HELD_OPEN_MIN} max={HELD_OPEN_MAX} />
          </Field>
          <Field label={t("forcedAlarm")} error={err(fields.forcedAlarm)}>
            <NativeSelect
              name={fields.forcedAlarm.name}
              defaultValue={device.forcedAlarm ? "1" : "0"}
              options={[
                { value: "1", label: t("alarmOn") },
                { value: "0", label: t("alarmOff") },
              ]}
            />
          </Field>
          {text("sensor1OpenName", t("sensor1Open"), false, 50)}
          {text("sensor1CloseName", t("sensor1Close"), false, 50)}
          {text("sensor2OpenName", t("sensor2Open"), false, 50)}
          {text("sensor2CloseName", t("sensor2Close"), false, 50)}
          <div className="flex flex-wrap gap-2 md:col-span-2">
            <Button type="submit" disabled={busy}>
              {t(edit ? "saveSettings" : "configure")}
            </Button>
            {onCancel && (
              <Button type="button" variant="outline" onClick={onCancel}>
                {t("cancel")}
              </Button>
            )}
          </div>
        </Form>
      </CardContent>
    </Card>
  );
}
