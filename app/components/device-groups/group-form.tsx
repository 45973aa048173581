import { HolidayChoiceFields } from "~/components/holidays/holiday-choice-fields";
import { Form, Link, useNavigation } from "@remix-run/react";
import { useState } from "react";
import { usePageForm } from "~/components/forms/use-page-form";
import { ZoneSelect } from "~/components/zone-select";
import { Button } from "~/components/ui/button";
import { Checkbox } from "~/components/ui/checkbox";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { Switch } from "~/components/ui/switch";
import { Textarea } from "~/components/ui/textarea";
import { TimeInput } from "~/components/ui/time-input";
import { createDeviceGroupSchema, modifyDeviceGroupSchema } from "~/schemas/device-groups";
import type { OnHolidays } from "~/schemas/holidays";
import { WEEKDAYS } from "~/schemas/week";
import type { DeviceOption } from "~/services/device-groups.server";
import { runsOvernight } from "~/utils/time-text";
import { readableZone } from "~/utils/zone-label";
import { DeviceTransfer } from "./device-transfer";

export type GroupFormValues = {
  id?: number;
  displayName: string;
  fullName: string;
  description: string;
  days: boolean[];
  startAt: string;
  endAt: string;
  isAllDay: boolean;
  timeZoneId: number | null;
  deactivated: boolean;
  /** The holiday calendar the schedule follows and how (decision 0077). */
  onHolidays: OnHolidays;
  holidayCalendarId: number | null;
};

type Props = {
  mode: "add" | "modify";
  values: GroupFormValues;
  zones: { id: number; label: string }[];
  available: DeviceOption[];
  inGroup: DeviceOption[];
  /** The company's holiday calendars. */
  calendars: { id: number; name: string }[];
};

/** The add and modify device-group form (docs/ARCHITECTURE.md §7.2); Conform with the schema the action parses. */
export function GroupForm({ mode, values, zones, available: initialAvailable, inGroup: initialInGroup, calendars }: Props) {
  const schema = mode === "add" ? createDeviceGroupSchema : modifyDeviceGroupSchema;
  const { fields, err, formError, formProps, t } = usePageForm({ id: `group-${mode}`, schema, ns: "groups" });
  const navigation = useNavigation();
  const [allDay, setAllDay] = useState(values.isAllDay);
  const [times, setTimes] = useState({ start: values.startAt, end: values.endAt });
  const [zoneId, setZoneId] = useState(values.timeZoneId == null ? "" : String(values.timeZoneId));
  const zoneLabel = zones.find((z) => String(z.id) === zoneId)?.label;
  const zone = zoneLabel ? readableZone(zoneLabel) : null;
  const [available, setAvailable] = useState(initialAvailable);
  const [inGroup, setInGroup] = useState(initialInGroup);
  const [onHolidays, setOnHolidays] = useState<OnHolidays>(values.onHolidays);
  const error = (name: keyof typeof fields) => err(fields[name]);
  // The whole-week check shows once the form was submitted, not as the days are ticked.
  const daysError = err({ errors: fields.days.errors, dirty: false });
  const busy = navigation.state === "submitting";

  const move = (device: DeviceOption, toGroup: boolean) => {
    const byName = (a: DeviceOption, b: DeviceOption) => a.fullName.localeCompare(b.fullName) || a.id - b.id;
    if (toGroup) {
      setAvailable((list) => list.filter((d) => d.id !== device.id));
      setInGroup((list) => [...list, device].sort(byName));
    } else {
      setInGroup((list) => list.filter((d) => d.id !== device.id));
      setAvailable((list) => [...list, device].sort(byName));
    }
  };

  return (
    <Form method="post" {...formProps} className="grid gap-6">
      {values.id != null && <input type="hidden" name="id" value={values.id} />}
      <div className="grid gap-4 md:grid-cols-2">
        <Field label={t("form.displayName")} error={error("displayName")} required>
          <Input name={fields.displayName.name} defaultValue={values.displayName} maxLength={100} />
        </Field>
        <Field label={t("form.fullName")} error={error("fullName")} required>
          <Input name={fields.fullName.name} defaultValue={values.fullName} maxLength={100} />
        </Field>
        <Field label={t("form.description")} className="md:col-span-2">
          <Textarea name={fields.description.name} defaultValue={values.description} rows={3} />
        </Field>
      </div>

      <fieldset className="grid gap-4 md:grid-cols-4">
        <Field label={t("form.allDay")} orientation="horizontal" className="self-end pb-2">
          <Checkbox
            name={fields.allDay.name}
            checked={allDay}
            onCheckedChange={(on) => {
              setAllDay(on === true);
              if (on === true) setTimes({ start: "", end: "" });
            }}
          />
        </Field>
        <Field label={t("form.startAt")} error={error("startAt")} required={!allDay}>
          <TimeInput name={fields.startAt.name} value={times.start} disabled={allDay} onValueChange={(start) => setTimes((x) => ({ ...x, start }))} />
        </Field>
        <Field label={t("form.endAt")} error={error("endAt")} required={!allDay}>
          <TimeInput name={fields.endAt.name} value={times.end} disabled={allDay} onValueChange={(end) => setTimes((x) => ({ ...x, end }))} />
        </Field>
        <Field label={t("form.timeZone")} error={error("timeZoneId")} required={mode === "add"}>
          <ZoneSelect
            zones={zones}
            placeholder={t("form.chooseZone")}
            name={fields.timeZoneId.name}
            defaultValue={values.timeZoneId ?? ""}
            onChange={(e) => setZoneId(e.target.value)}
          />
        </Field>
        {!allDay && (
          <p className="text-sm text-muted-foreground md:col-span-4" aria-live="polite" data-testid="group-times-hint">
            {runsOvernight(times.start, times.end)
              ? t(zone ? "form.overnightIn" : "form.overnight", { start: times.start, end: times.end, zone })
              : zone && t("form.timesIn", { zone })}
          </p>
        )}
      </fieldset>

      <fieldset className="grid gap-2" aria-describedby={daysError ? "days-error" : undefined}>
        <legend className="mb-2 text-sm font-medium">
          {t("form.days")}
          <span className="ml-0.5 text-destructive" aria-hidden="true">
            *
          </span>
        </legend>
        <div className="flex flex-wrap gap-4">
          {WEEKDAYS.map((day, i) => (
            <Field key={day} label={t(`day.${i}`)} orientation="horizontal">
              <Checkbox id={`day-${day}`} name={fields.days.getFieldset()[day].name} defaultChecked={values.days[i]} />
            </Field>
          ))}
        </div>
        {daysError && (
          <p id="days-error" className="text-xs font-medium text-destructive">
            {daysError}
          </p>
        )}
      </fieldset>

      <fieldset className="grid gap-4 md:grid-cols-2">
        <HolidayChoiceFields
          id="group"
          choice={onHolidays}
          onChoice={setOnHolidays}
          calendar={{ defaultValue: values.holidayCalendarId }}
          calendars={calendars}
          names={{ choice: fields.onHolidays.name, calendar: fields.holidayCalendarId.name }}
          labels={{
            choice: t("form.onHolidays"),
            option: (o) => t(`onHolidays.${o}`),
            calendar: t("form.holidayCalendar"),
            selectCalendar: t("form.selectCalendar"),
            hint: t("form.onHolidaysHint"),
            noCalendars: { text: t("form.noCalendars"), add: t("form.addCalendar") },
          }}
          errors={{ choice: error("onHolidays"), calendar: error("holidayCalendarId") }}
        />
      </fieldset>

      <div className="flex items-center gap-2">
        {/* Checked posts status 3 (deactivated); absent keeps or restores an active status. */}
        <Switch id="deactivate" name={fields.status.name} value="3" defaultChecked={values.deactivated} />
        <Label htmlFor="deactivate">{t("form.deactivate")}</Label>
      </div>

      <DeviceTransfer available={available} inGroup={inGroup} onMove={move} name={fields.deviceIds.name} error={error("deviceIds")} />

      {formError && (
        <p role="alert" className="text-sm font-medium text-destructive">
          {formError}
        </p>
      )}

      <div className="flex flex-wrap gap-3">
        {mode === "add" ? (
          <>
            <Button type="submit" name="intent" value="another" variant="outline" loading={busy && navigation.formData?.get("intent") === "another"}>
              {t("form.addAnother")}
            </Button>
            <Button type="submit" name="intent" value="return" loading={busy && navigation.formData?.get("intent") === "return"}>
              {t("form.addReturn")}
            </Button>
          </>
        ) : (
          <>
            <Button type="submit" name="intent" value="save" loading={busy}>
              {t("form.save")}
            </Button>
            <Button asChild variant="outline">
              <Link to="/deviceGroups">{t("form.cancel")}</Link>
            </Button>
          </>
        )}
      </div>
    </Form>
  );
}
