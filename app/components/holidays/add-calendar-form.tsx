import { Form, useNavigation } from "@remix-run/react";
import { usePageForm } from "~/components/forms/use-page-form";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { NativeSelect } from "~/components/ui/native-select";
import { addCalendarSchema } from "~/schemas/holidays";

export type HolidaySetOption = { code: string; label: string };

/** A new calendar: its name, and optionally a country's or region's public holidays for a year to start with. */
export function AddCalendarForm({ sets, years, year }: { sets: HolidaySetOption[]; years: number[]; year: number }) {
  const { fields, err, formError, formProps, t } = usePageForm({ id: "add-calendar", schema: addCalendarSchema, ns: "holidays" });
  const navigation = useNavigation();
  return (
    <Form method="post" {...formProps} className="grid max-w-xl gap-4">
      {formError && (
        <Alert variant="destructive">
          <AlertDescription>{formError}</AlertDescription>
        </Alert>
      )}
      <Field label={t("name")} error={err(fields.name)} required>
        <Input id="calendar-name" name={fields.name.name} maxLength={100} autoComplete="off" />
      </Field>
      <Field label={t("importFrom")} error={err(fields.source)}>
        <NativeSelect id="calendar-source" name={fields.source.name} defaultValue="">
          <option value="">{t("importNone")}</option>
          {sets.map((s) => (
            <option key={s.code} value={s.code}>
              {s.label}
            </option>
          ))}
        </NativeSelect>
      </Field>
      <Field label={t("year")} error={err(fields.year)}>
        <NativeSelect id="calendar-year" name={fields.year.name} defaultValue={String(year)}>
          {years.map((y) => (
            <option key={y} value={y}>
              {y}
            </option>
          ))}
        </NativeSelect>
      </Field>
      <div>
        <Button type="submit" disabled={navigation.state === "submitting"}>
          {t("create")}
        </Button>
      </div>
    </Form>
  );
}
