import { usePageForm } from "~/components/forms/use-page-form";
import { Form, useActionData, useNavigation } from "@remix-run/react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { FormAlert } from "~/components/auth/form-parts";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { NativeSelect } from "~/components/ui/native-select";
import { translateMessage } from "~/i18n/messages";
import { alertAddFormSchema, alertModifyFormSchema, type AlertActionData } from "~/schemas/alert-form";
import type { ConditionField } from "~/schemas/alerts";
import { activityName } from "./activity-name";
import { STEP_OF, StepNav, STEPS } from "./alert-steps";
import { ConditionPicker } from "./condition-picker";
import { CustomScheduleFields, type CustomSchedule } from "./custom-schedule-fields";
import { RecipientsFields } from "./recipients-fields";

export type AlertFormValues = {
  id?: number;
  name: string;
  activity: string;
  createdBy: string[];
  targetUsers: string[];
  devices: string[];
  schedule: "any" | "custom" | "";
  timeZoneId: string;
  recipientUsers: string[];
  recipientEmails: string;
} & CustomSchedule;

export type AlertOptions = {
  activities: { id: number; name: string; type: string; alertConditions: string }[];
  users: { id: number; name: string; email: string }[];
  devices: { id: number; name: string }[];
  zones: { id: number; label: string }[];
};

/** `readOnly`: a role that may see alerts but not change them gets the form disabled, without save or test mail. */
type Props = { mode: "add" | "modify"; values: AlertFormValues; options: AlertOptions; today: string; readOnly?: boolean };

/** The four-step alert form (spec part 1 §2, §4, §5): conform with the shared zod schema in the browser and on the server. */
export function AlertForm({ mode, values, options, today, readOnly = false }: Props) {
  const { t } = useTranslation("alerts");
  const actionData = useActionData<AlertActionData>();
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") !== "test";
  const [step, setStep] = useState(0);
  const formSchema = mode === "add" ? alertAddFormSchema : alertModifyFormSchema;
  const { form, formProps } = usePageForm({ id: "alert-form", schema: formSchema, ns: "alerts", lastResult: actionData?.result ?? null });
  const errors = form.allErrors;
  const err = (name: string) => (errors[name]?.[0] ? translateMessage(t, errors[name][0], "alerts") : undefined);

  const [name, setName] = useState(values.name);
  const [activity, setActivity] = useState(values.activity);
  const conditions = options.activities.find((a) => a.name === activity)?.alertConditions ?? "000";
  const [schedule, setSchedule] = useState(values.schedule);
  const [custom, setCustom] = useState<CustomSchedule>(() => {
    const { startDate, endDate, neverEnds, days, allDay, startTime, endTime } = values;
    return { startDate, endDate, neverEnds, days, allDay, startTime, endTime };
  });
  const [recipientUsers, setRecipientUsers] = useState(values.recipientUsers);
  const [recipientEmails, setRecipientEmails] = useState(values.recipientEmails);

  // A failed save (in the browser or on the server) whose errors are all on other steps opens the first of them; typing does not move the form.
  const [jump, setJump] = useState(0);
  const stepHasError = (i: number) => Object.keys(errors).some((k) => STEP_OF[k] === i && errors[k]?.length);
  const firstError = STEPS.findIndex((_, i) => stepHasError(i));
  useEffect(() => {
    if (jump && firstError >= 0 && !stepHasError(step)) setStep(firstError);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [jump, actionData]);

  /** Choosing a schedule starts the custom one afresh: today, no end, every day, all day. */
  const chooseSchedule = (next: "any" | "custom") => {
    setSchedule(next);
    setCustom({ startDate: today, endDate: "", neverEnds: true, days: Array(7).fill(true), allDay: true, startTime: "", endTime: "" });
  };

  const picker = (field: ConditionField, label: string, anyLabel: string, items: { id: number; name: string }[], initial: string[]) => (
    <ConditionPicker field={field} label={label} anyLabel={anyLabel} hint={t("pickerHint")} error={err(field)} items={items} initial={initial} />
  );

  return (
    <div className="grid gap-6">
      <StepNav step={step} onStep={setStep} />

      <Form method="post" {...formProps} className="grid gap-6">
        {values.id != null && <input type="hidden" name="id" value={values.id} />}
        <FormAlert message={err("")} />
        <fieldset disabled={readOnly} className="contents">
          <section hidden={step !== 0} aria-labelledby="step-alert" className="grid gap-4 md:max-w-xl">
            <h2 id="step-alert" className="text-lg font-semibold">
              {t("step.alert")}
            </h2>
            <Field label={t("form.name")} error={err("name")} required>
              <Input name="name" value={name} onChange={(e) => setName(e.target.value)} maxLength={100} />
            </Field>
            <Field label={t("form.activity")} error={err("activity")} required>
              <NativeSelect name="activity" value={activity} onChange={(e) => setActivity(e.target.value)}>
                <option value="">{t("form.chooseActivity")}</option>
                {options.activities.map((a) => (
                  <option key={a.id} value={a.name}>
                    {activityName(t, a.name)} ({t(`op.${a.type}`, { ns: "activity", defaultValue: a.type })})
                  </option>
                ))}
              </NativeSelect>
            </Field>
          </section>

          <section hidden={step !== 1} aria-labelledby="step-conditions" className="grid gap-4 md:max-w-xl">
            <h2 id="step-conditions" className="text-lg font-semibold">
              {t("step.conditions")}
            </h2>
            {conditions === "000" && <p className="text-sm text-muted-foreground">{t("noConditions")}</p>}
            {conditions[0] === "1" && picker("createdBy", t("form.createdBy"), t("anyUser"), options.users, values.createdBy)}
            {conditions[1] === "1" && picker("targetUsers", t("form.targetUsers"), t("anyUser"), options.users, values.targetUsers)}
            {conditions[2] === "1" && picker("devices", t("form.devices"), t("anyDevice"), options.devices, values.devices)}
          </section>

          <section hidden={step !== 2} aria-labelledby="step-schedule" className="grid gap-4 md:max-w-2xl">
            <h2 id="step-schedule" className="text-lg font-semibold">
              {t("step.schedule")}
            </h2>
            <fieldset className="grid gap-2">
              <legend className="mb-1 text-sm font-medium">{t("form.schedule")}</legend>
              <div className="flex gap-6">
                {(["any", "custom"] as const).map((s) => (
                  <label key={s} className="flex items-center gap-2 text-sm">
                    <input type="radio" name="schedule" value={s} checked={schedule === s} onChange={() => chooseSchedule(s)} />
                    {t(`schedule.${s}`)}
                  </label>
                ))}
              </div>
              {err("schedule") && <p className="text-xs font-medium text-destructive">{err("schedule")}</p>}
            </fieldset>
            {schedule === "custom" && <CustomScheduleFields custom={custom} setCustom={setCustom} err={err} zones={options.zones} zone={values.timeZoneId} />}
          </section>

          <section hidden={step !== 3} aria-labelledby="step-recipients" className="grid gap-4 md:max-w-xl">
            <h2 id="step-recipients" className="text-lg font-semibold">
              {t("step.recipients")}
            </h2>
            <RecipientsFields
              users={options.users}
              recipientUsers={recipientUsers}
              setRecipientUsers={setRecipientUsers}
              recipientEmails={recipientEmails}
              setRecipientEmails={setRecipientEmails}
              name={name}
              error={err("recipients")}
              sent={actionData?.sent}
              readOnly={readOnly}
            />
          </section>
        </fieldset>

        <div className="flex flex-wrap gap-3 border-t pt-4">
          <Button type="button" variant="outline" disabled={step === 0} onClick={() => setStep((s) => s - 1)}>
            {t("back")}
          </Button>
          <Button type="button" variant="outline" disabled={step === STEPS.length - 1} onClick={() => setStep((s) => s + 1)}>
            {t("next")}
          </Button>
          {/* Conform also submits to revalidate while typing: only this button's click may move the form to an error. */}
          {!readOnly && (
            <Button type="submit" loading={busy} onClick={() => setTimeout(() => setJump((n) => n + 1))}>
              {mode === "add" ? t("form.add") : t("form.save")}
            </Button>
          )}
        </div>
      </Form>
    </div>
  );
}
