import { Form, useNavigation } from "@remix-run/react";
import type { SubmissionResult } from "@conform-to/react";
import { usePageForm } from "~/components/forms/use-page-form";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { NativeSelect } from "~/components/ui/native-select";
import { calendarFormSchema, holidayDateSchema, importSchema } from "~/schemas/holidays";
import type { HolidaySetOption } from "./add-calendar-form";

type Last = SubmissionResult<string[]> | undefined;

function FormError({ message }: { message?: string }) {
  return message ? (
    <Alert variant="destructive">
      <AlertDescription>{message}</AlertDescription>
    </Alert>
  ) : null;
}

/** The calendar's name. */
export function RenameForm({ name, lastResult }: { name: string; lastResult: Last }) {
  const { fields, err, formError, formProps, t } = usePageForm({ id: "calendar-rename", schema: calendarFormSchema, ns: "holidays", lastResult });
  const busy = useNavigation().state === "submitting";
  return (
    <Form method="post" {...formProps} className="grid max-w-xl gap-4">
      <input type="hidden" name="intent" value="rename" />
      <FormError message={formError} />
      <Field label={t("name")} error={err(fields.name)} required>
        <Input id="calendar-name" name={fields.name.name} defaultValue={name} maxLength={100} autoComplete="off" />
      </Field>
      <div>
        <Button type="submit" variant="outline" disabled={busy}>
          {t("rename")}
        </Button>
      </div>
    </Form>
  );
}

/** A date: whole day, or open hours ("closes at 14:00" is a closing time alone). */
export function DateForm({ lastResult }: { lastResult: Last }) {
  const { fields, err, formError, formProps, t } = usePageForm({ id: "calendar-date", schema: holidayDateSchema, ns: "holidays", lastResult });
  const busy = useNavigation().state === "submitting";
  return (
    <Form method="post" {...formProps} className="grid gap-4 rounded-lg border p-4">
      <input type="hidden" name="intent" value="date" />
      <FormError message={formError} />
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <Field label={t("date")} error={err(fields.date)} required>
          <Input id="holiday-date" type="date" name={fields.date.name} />
        </Field>
        <Field label={t("holidayName")} error={err(fields.name)}>
          <Input id="holiday-name" name={fields.name.name} maxLength={80} autoComplete="off" />
        </Field>
        <Field label={t("openTime")} error={err(fields.openTime)}>
          <Input id="holiday-open" type="time" name={fields.openTime.name} />
        </Field>
        <Field label={t("closeTime")} error={err(fields.closeTime)}>
          <Input id="holiday-close" type="time" name={fields.closeTime.name} />
        </Field>
      </div>
      <p className="text-xs text-muted-foreground">{t("hoursHint")}</p>
      <div>
        <Button type="submit" disabled={busy}>
          {t("saveDate")}
        </Button>
      </div>
    </Form>
  );
}

/** Adds a public-holiday set's dates for a year. */
export function ImportForm({ sets, years, year, lastResult }: { sets: HolidaySetOption[]; years: number[]; year: number; lastResult: Last }) {
  const { fields, err, formError, formProps, t } = usePageForm({ id: "calendar-import", schema: importSchema, ns: "holidays", lastResult });
  const busy = useNavigation().state === "submitting";
  return (
    <Form method="post" {...formProps} className="grid gap-4 rounded-lg border p-4">
      <input type="hidden" name="intent" value="import" />
      <h2 className="text-base font-semibold">{t("importTitle")}</h2>
      <FormError message={formError} />
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label={t("importSet")} error={err(fields.source)} required>
          <NativeSelect id="import-source" name={fields.source.name} defaultValue="">
            <option value="" />
            {sets.map((s) => (
              <option key={s.code} value={s.code}>
                {s.label}
              </option>
            ))}
          </NativeSelect>
        </Field>
        <Field label={t("year")} error={err(fields.year)}>
          <NativeSelect id="import-year" name={fields.year.name} defaultValue={String(year)}>
            {years.map((y) => (
              <option key={y} value={y}>
                {y}
              </option>
            ))}
          </NativeSelect>
        </Field>
      </div>
      <p className="text-xs text-muted-foreground">{t("importHint")}</p>
      <div>
        <Button type="submit" variant="outline" disabled={busy}>
          {t("importButton")}
        </Button>
      </div>
    </Form>
  );
}
