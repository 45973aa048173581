import { usePageForm } from "~/components/forms/use-page-form";
import { parseWithZod } from "@conform-to/zod";
import { Form, useActionData, useNavigation } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { FormAlert } from "~/components/auth/form-parts";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { SearchPicker, type PickerOption } from "~/components/ui/search-picker";
import { translateMessage } from "~/i18n/messages";
import { alertAddFormSchema, alertModifyFormSchema, type AlertActionData } from "~/schemas/alert-form";
import { CONDITION_FIELDS, CONDITION_MSG, type Channel, type ConditionField } from "~/schemas/alerts";
import { parseOptionsFor } from "~/utils/form-options";
import { activityName } from "./activity-name";
import { STEP_OF, StepNav, STEPS } from "./alert-steps";
import { alertPickerSource, ConditionPicker, useChipTexts } from "./condition-picker";
import { CustomScheduleFields, type CustomSchedule } from "./custom-schedule-fields";
import { RecipientsFields } from "./recipients-fields";

/** The pickers hold chosen entries with their labels (value "any" for any user or device); activities by name. */
export type AlertFormValues = {
  id?: number;
  name: string;
  activities: string[];
  createdBy: PickerOption[];
  targetUsers: PickerOption[];
  devices: PickerOption[];
  schedule: "any" | "custom";
  timeZoneId: string;
  recipientUsers: PickerOption[];
  /** Each picked user's channel by id; absent is e-mail. */
  recipientChannels: Record<string, Channel>;
  recipientEmails: string;
} & CustomSchedule;

/** The activities the company can have; users and devices are searched on the server as they are typed. */
export type AlertOptions = {
  activities: { id: number; name: string; type: string; alertConditions: string }[];
  zones: { id: number; label: string }[];
  /** The company allows alerts by text message. */
  textsAllowed: boolean;
  /** The company's holiday calendars a custom schedule may follow. */
  calendars: { id: number; name: string }[];
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

  const [name, setName] = useState(values.name);
  const [activities, setActivities] = useState(values.activities);
  const picked = options.activities.filter((a) => activities.includes(a.name));
  // A picker shows when any chosen activity asks for it.
  const conditions = [0, 1, 2].map((i) => (picked.some((a) => a.alertConditions[i] === "1") ? "1" : "0")).join("");
  const [targets, setTargets] = useState<Record<ConditionField, PickerOption[]>>({ createdBy: values.createdBy, targetUsers: values.targetUsers, devices: values.devices });
  const [schedule, setSchedule] = useState(values.schedule);
  const [custom, setCustom] = useState<CustomSchedule>(() => {
    const { startDate, endDate, neverEnds, days, allDay, startTime, endTime, onHolidays, holidayCalendarId } = values;
    return { startDate, endDate, neverEnds, days, allDay, startTime, endTime, onHolidays, holidayCalendarId };
  });
  const [recipientUsers, setRecipientUsers] = useState(values.recipientUsers);
  const [recipientEmails, setRecipientEmails] = useState(values.recipientEmails);
  const [channels, setChannels] = useState(values.recipientChannels);
  const chipTexts = useChipTexts();

  // Errors "Next" found on fields the browser schema does not check (a condition's picker); a change clears its own.
  const [stepErrors, setStepErrors] = useState<Record<string, string>>({});
  const err = (field: string) =>
    errors[field]?.[0] ? translateMessage(t, errors[field][0], "alerts") : stepErrors[field] ? translateMessage(t, stepErrors[field], "alerts") : undefined;
  const formRef = useRef<HTMLFormElement>(null);

  /** "Next" moves on only when this step's fields pass: the same schema as saving, plus the pickers the activities ask for. */
  const next = () => {
    const parsed = parseWithZod(new FormData(formRef.current!), { schema: formSchema, ...parseOptionsFor(formSchema) });
    const found = parsed.status === "error" ? (parsed.error ?? {}) : {};
    const wrong = Object.keys(found).filter((k) => STEP_OF[k] === step && found[k]?.length);
    const missing = step === 1 ? CONDITION_FIELDS.filter((f, i) => conditions[i] === "1" && targets[f].length === 0) : [];
    setStepErrors(Object.fromEntries(missing.map((f) => [f, CONDITION_MSG[f]])));
    wrong.forEach((k) => form.validate({ name: k }));
    if (wrong.length === 0 && missing.length === 0) setStep((s) => s + 1);
  };
  const setTarget = (field: ConditionField) => (next: PickerOption[]) => {
    setTargets((x) => ({ ...x, [field]: next }));
    setStepErrors(({ [field]: _, ...rest }) => rest);
  };

  // A failed save (in the browser or on the server) whose errors are all on other steps opens the first of them; typing does not move the form.
  const [jump, setJump] = useState(0);
  const stepHasError = (i: number) => Object.keys(errors).some((k) => STEP_OF[k] === i && errors[k]?.length);
  const firstError = STEPS.findIndex((_, i) => stepHasError(i));
  useEffect(() => {
    if (jump && firstError >= 0 && !stepHasError(step)) setStep(firstError);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [jump, actionData]);

  /** Choosing a schedule starts the custom one afresh: today, no end, every day, all day, holidays as any day. */
  const chooseSchedule = (next: "any" | "custom") => {
    setSchedule(next);
    setCustom({ startDate: today, endDate: "", neverEnds: true, days: Array(7).fill(true), allDay: true, startTime: "", endTime: "", onHolidays: "ignore", holidayCalendarId: "" });
  };

  const picker = (field: ConditionField, label: string, any: PickerOption) => (
    <ConditionPicker
      field={field}
      label={label}
      any={any}
      source={alertPickerSource(field === "devices" ? "devices" : "users")}
      error={err(field)}
      value={targets[field]}
      onChange={setTarget(field)}
    />
  );
  const anyUser = { value: "any", label: t("anyUser") };
  const activityOptions = options.activities.map((a) => ({ value: a.name, label: activityName(t, a.name), detail: t(`op.${a.type}`, { ns: "activity", defaultValue: a.type }) }));

  return (
    <div className="grid gap-6">
      <StepNav step={step} onStep={setStep} />

      <Form method="post" {...formProps} ref={formRef} className="grid gap-6">
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
            <Field label={t("form.activities")} error={err("activities")} hint={t("form.activitiesHint")} required>
              <SearchPicker
                name="activities"
                multiple
                keepEnter
                value={activityOptions.filter((o) => activities.includes(o.value))}
                onChange={(next) => setActivities(next.map((o) => o.value))}
                source={{ options: activityOptions }}
                texts={chipTexts(t("form.searchActivities"))}
              />
            </Field>
          </section>

          <section hidden={step !== 1} aria-labelledby="step-conditions" className="grid gap-4 md:max-w-xl">
            <h2 id="step-conditions" className="text-lg font-semibold">
              {t("step.conditions")}
            </h2>
            {conditions === "000" && <p className="text-sm text-muted-foreground">{t("noConditions")}</p>}
            {conditions[0] === "1" && picker("createdBy", t("form.createdBy"), anyUser)}
            {conditions[1] === "1" && picker("targetUsers", t("form.targetUsers"), anyUser)}
            {conditions[2] === "1" && picker("devices", t("form.devices"), { value: "any", label: t("anyDevice") })}
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
            {schedule === "custom" && (
              <CustomScheduleFields custom={custom} setCustom={setCustom} err={err} zones={options.zones} zone={values.timeZoneId} calendars={options.calendars} />
            )}
          </section>

          <section hidden={step !== 3} aria-labelledby="step-recipients" className="grid gap-4 md:max-w-xl">
            <h2 id="step-recipients" className="text-lg font-semibold">
              {t("step.recipients")}
            </h2>
            <RecipientsFields
              recipientUsers={recipientUsers}
              setRecipientUsers={setRecipientUsers}
              recipientEmails={recipientEmails}
              setRecipientEmails={setRecipientEmails}
              textsAllowed={options.textsAllowed}
              channels={channels}
              setChannel={(id, channel) => setChannels((x) => ({ ...x, [id]: channel }))}
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
          <Button type="button" variant="outline" disabled={step === STEPS.length - 1} onClick={next}>
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
