import { Link } from "@remix-run/react";
import { Field } from "~/components/ui/field";
import { NativeSelect } from "~/components/ui/native-select";
import { ON_HOLIDAYS, type OnHolidays } from "~/schemas/holidays";

type CalendarControl =
  /** A controlled calendar select (the draft or state holds the id; "" is none). */
  | { value: string | number | null; onChange: (id: string) => void }
  /** An uncontrolled one, posted with its form. */
  | { defaultValue: string | number | null };

type Props = {
  /** The controls' ids: `${id}-on-holidays` and `${id}-holiday-calendar`. */
  id: string;
  choice: OnHolidays;
  onChoice: (choice: OnHolidays) => void;
  calendar: CalendarControl;
  calendars: readonly { id: number; name: string }[];
  /** Field names when the selects post with a form. */
  names?: { choice: string; calendar: string };
  /** Each form's own words: what a holiday does differs between opening hours, keys and alerts. */
  labels: {
    choice: string;
    option: (choice: OnHolidays) => string;
    calendar: string;
    selectCalendar: string;
    hint?: string;
    /** With no calendar yet: says so and links to adding one. */
    noCalendars?: { text: string; add: string };
  };
  errors?: { choice?: string | string[]; calendar?: string | string[] };
};

/**
 * What a schedule does on the dates of a holiday calendar (decision 0077), and which calendar: the
 * calendar is asked for only once the choice is not "Same as any day". Renders its fields into the
 * caller's grid; the note with no calendar spans the grid's columns.
 */
export function HolidayChoiceFields({ id, choice, onChoice, calendar, calendars, names, labels, errors }: Props) {
  const calendarValue =
    "value" in calendar
      ? { value: calendar.value ?? "", onChange: (e: { target: { value: string } }) => calendar.onChange(e.target.value) }
      : { defaultValue: calendar.defaultValue ?? "" };
  return (
    <>
      <Field label={labels.choice} error={errors?.choice} hint={labels.hint}>
        <NativeSelect
          id={`${id}-on-holidays`}
          name={names?.choice}
          value={choice}
          onChange={(e) => onChoice(e.target.value as OnHolidays)}
          options={ON_HOLIDAYS.map((o) => ({ value: o, label: labels.option(o) }))}
        />
      </Field>
      {choice !== "ignore" && (
        <Field label={labels.calendar} error={errors?.calendar} required>
          <NativeSelect id={`${id}-holiday-calendar`} name={names?.calendar} {...calendarValue} options={calendars.map((c) => ({ value: c.id, label: c.name }))}>
            <option value="">{labels.selectCalendar}</option>
          </NativeSelect>
        </Field>
      )}
      {choice !== "ignore" && calendars.length === 0 && labels.noCalendars && (
        <p role="note" className="col-span-full text-sm text-muted-foreground">
          {labels.noCalendars.text}{" "}
          <Link to="/addHolidayCalendar" className="font-medium text-primary underline-offset-4 hover:underline">
            {labels.noCalendars.add}
          </Link>
        </p>
      )}
    </>
  );
}
