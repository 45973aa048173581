import { HolidayChoiceFields } from "~/components/holidays/holiday-choice-fields";
import type { Dispatch, SetStateAction } from "react";
import { useTranslation } from "react-i18next";
import { ZoneSelect } from "~/components/zone-select";
import { Checkbox } from "~/components/ui/checkbox";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { TimeInput } from "~/components/ui/time-input";
import type { OnHolidays } from "~/schemas/holidays";
import { WEEKDAYS } from "~/schemas/week";

/** The custom schedule as the form holds it while it is edited. */
export type CustomSchedule = {
  startDate: string;
  endDate: string;
  neverEnds: boolean;
  days: boolean[];
  allDay: boolean;
  startTime: string;
  endTime: string;
  /** On a holiday of `holidayCalendarId` (decision 0077): as any day, not at all, or the holiday's hours. */
  onHolidays: OnHolidays;
  holidayCalendarId: string;
};

type Props = {
  custom: CustomSchedule;
  setCustom: Dispatch<SetStateAction<CustomSchedule>>;
  err: (name: string) => string | undefined;
  zones: { id: number; label: string }[];
  zone: string;
  /** The company's holiday calendars. */
  calendars: { id: number; name: string }[];
};

/** The schedule step's custom fields: dates, never ends, all day, times, weekdays, the zone they are read in and what holidays do. */
export function CustomScheduleFields({ custom, setCustom, err, zones, zone, calendars }: Props) {
  const { t } = useTranslation("alerts");
  return (
    <div className="grid gap-4 md:grid-cols-2">
      <Field label={t("form.startDate")} error={err("startDate")} required>
        <Input type="date" name="startDate" value={custom.startDate} onChange={(e) => setCustom((c) => ({ ...c, startDate: e.target.value }))} />
      </Field>
      <Field label={t("form.endDate")} error={err("endDate")} required={!custom.neverEnds}>
        <Input type="date" name="endDate" value={custom.endDate} disabled={custom.neverEnds} onChange={(e) => setCustom((c) => ({ ...c, endDate: e.target.value }))} />
      </Field>
      <Field label={t("form.neverEnds")} orientation="horizontal">
        <Checkbox
          name="neverEnds"
          value="1"
          checked={custom.neverEnds}
          onCheckedChange={(on) => setCustom((c) => ({ ...c, neverEnds: on === true, endDate: on === true ? "" : c.endDate }))}
        />
      </Field>
      <Field label={t("form.allDay")} orientation="horizontal">
        <Checkbox
          name="allDay"
          value="1"
          checked={custom.allDay}
          onCheckedChange={(on) => setCustom((c) => ({ ...c, allDay: on === true, ...(on === true && { startTime: "", endTime: "" }) }))}
        />
      </Field>
      {(["startTime", "endTime"] as const).map((k) => (
        <Field key={k} label={t(`form.${k}`)} error={err(k)} required={!custom.allDay}>
          <TimeInput name={k} step={300} value={custom[k]} disabled={custom.allDay} onValueChange={(v) => setCustom((c) => ({ ...c, [k]: v }))} />
        </Field>
      ))}
      <fieldset className="grid gap-2 md:col-span-2">
        <legend className="mb-1 text-sm font-medium">{t("form.days")}</legend>
        <div className="flex flex-wrap gap-4">
          {WEEKDAYS.map((d, i) => (
            <Field key={d} label={t(`day.${i}`)} orientation="horizontal">
              <Checkbox
                id={`day-${d}`}
                name={`days.${d}`}
                value="1"
                checked={custom.days[i]}
                onCheckedChange={(on) => setCustom((c) => ({ ...c, days: c.days.map((x, j) => (j === i ? on === true : x)) }))}
              />
            </Field>
          ))}
        </div>
        {err("days") && <p className="text-xs font-medium text-destructive">{err("days")}</p>}
      </fieldset>
      <Field label={t("form.zone")} error={err("timeZoneId")} required className="md:col-span-2">
        <ZoneSelect zones={zones} placeholder={t("form.chooseZone")} name="timeZoneId" defaultValue={zone} />
      </Field>
      <HolidayChoiceFields
        id="alert"
        choice={custom.onHolidays}
        onChoice={(onHolidays) => setCustom((c) => ({ ...c, onHolidays }))}
        calendar={{ value: custom.holidayCalendarId, onChange: (holidayCalendarId) => setCustom((c) => ({ ...c, holidayCalendarId })) }}
        calendars={calendars}
        names={{ choice: "onHolidays", calendar: "holidayCalendarId" }}
        labels={{
          choice: t("form.onHolidays"),
          option: (o) => t(`onHolidays.${o}`),
          calendar: t("form.holidayCalendar"),
          selectCalendar: t("form.selectCalendar"),
          hint: t("form.onHolidaysHint"),
        }}
        errors={{ choice: err("onHolidays"), calendar: err("holidayCalendarId") }}
      />
    </div>
  );
}
