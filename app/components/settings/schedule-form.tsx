import { HolidayChoiceFields } from "~/components/holidays/holiday-choice-fields";
import type { SubmissionResult } from "@conform-to/react";
import { Link, useNavigation, useSubmit } from "@remix-run/react";
import { useMemo, useRef, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { FormAlert } from "~/components/auth/form-parts";
import { useCore } from "~/components/ekeys/use-core";
import { Button } from "~/components/ui/button";
import { Switch } from "~/components/ui/switch";
import { Label } from "~/components/ui/label";
import { translateMessage } from "~/i18n/messages";
import { HOLIDAY_MSG, type OnHolidays } from "~/schemas/holidays";
import { scheduleErrorKey, scheduleErrors, scheduleOpenSchema, scheduleWindow } from "~/schemas/settings";
import type { ScheduleOpen } from "~/services/scheduled-open.server";
import { issuesByField } from "~/utils/field-errors";
import { ExceptionsTable } from "./exceptions-table";
import { clear, formFields, replyErrors, type ExceptionRow, type Row } from "./schedule-rows";
import { WeekTable } from "./week-table";

/**
 * The /scheduleOpen form (docs/ARCHITECTURE.md §7.2): FPI, Monday to Sunday, the exceptions and what the
 * doors do on holidays (decision 0077). Checked
 * in the browser with the shared schema and the access-window core (the gateways' own rules, which
 * are not a zod schema), then posted as plain fields the action parses with the same schema through
 * Conform; the server's refusals come back as Conform's reply and land on their fields.
 */
export function ScheduleForm({ data, lastResult }: { data: ScheduleOpen; lastResult?: SubmissionResult<string[]> }) {
  const { t } = useTranslation("settings");
  const core = useCore();
  const submit = useSubmit();
  const busy = useNavigation().state === "submitting";
  const nextKey = useRef(data.exceptions.length);
  const [fpi, setFpi] = useState(data.fpi);
  const [onHolidays, setOnHolidays] = useState<OnHolidays>(data.onHolidays);
  const [calendarId, setCalendarId] = useState<number | null>(data.holidayCalendarId);
  const [week, setWeek] = useState<Row[]>(data.week.map(({ openWholeDay, openTime, closeTime }) => ({ openWholeDay, openTime, closeTime })));
  const [exceptions, setExceptions] = useState<ExceptionRow[]>(
    data.exceptions.map((e, key) => ({ key, exceptionDate: e.date, openWholeDay: e.openWholeDay, openTime: e.openTime, closeTime: e.closeTime })),
  );
  const [attempted, setAttempted] = useState(false);
  const serverErrors = useMemo(() => replyErrors(lastResult), [lastResult]);
  const [staleServerErrors, setStaleServerErrors] = useState<Record<string, string[]> | undefined>(undefined);

  const wire = useMemo(
    () => ({
      fpi,
      schedule_opens: week.map((r, scheduleDay) => ({ scheduleDay, ...r })),
      schedule_exceptions: exceptions.map(({ key: _key, ...e }) => e),
      on_holidays: onHolidays,
      holiday_calendar_id: onHolidays === "ignore" ? null : calendarId,
    }),
    [fpi, week, exceptions, onHolidays, calendarId],
  );
  const clientErrors = useMemo(() => {
    const parsed = scheduleOpenSchema.safeParse(wire);
    if (!parsed.success) return issuesByField(parsed.error.issues, scheduleErrorKey);
    const holidays: Record<string, string[]> = wire.on_holidays !== "ignore" && wire.holiday_calendar_id == null ? { holiday_calendar_id: [HOLIDAY_MSG.calendarRequired] } : {};
    return { ...holidays, ...(core ? scheduleErrors(core.validate(scheduleWindow(parsed.data, data.tz))) : {}) };
  }, [wire, core, data.tz]);
  const errors = { ...(attempted ? clientErrors : {}), ...(serverErrors !== staleServerErrors ? serverErrors : {}) };
  const err = (key: string) => (errors[key]?.[0] ? translateMessage(t, errors[key][0], "settings") : undefined);

  const edited = () => setStaleServerErrors(serverErrors);
  const setDay = (i: number, patch: Partial<Row>) => {
    edited();
    setWeek((rows) => rows.map((r, j) => (j === i ? clear({ ...r, ...patch }) : r)));
  };
  const setException = (key: number, patch: Partial<ExceptionRow>) => {
    edited();
    setExceptions((rows) => rows.map((r) => (r.key === key ? clear({ ...r, ...patch }) : r)));
  };
  const addException = () => {
    edited();
    // New exceptions start with whole day on and an empty date (docs/ARCHITECTURE.md §7.2).
    setExceptions((rows) => [...rows, { key: nextKey.current++, exceptionDate: "", openWholeDay: true, openTime: "", closeTime: "" }]);
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setAttempted(true);
    edited();
    if (Object.keys(clientErrors).length) return;
    submit(formFields(wire), { method: "post" });
  };

  return (
    <form onSubmit={onSubmit} noValidate className="grid grid-cols-1 gap-6">
      <FormAlert message={err("_") ?? (Object.keys(errors).length ? t("schedule.fixErrors") : undefined)} />
      <div className="grid gap-1">
        <div className="flex items-center gap-2">
          <Switch id="fpi" checked={fpi} onCheckedChange={(on) => (edited(), setFpi(on))} aria-describedby="fpi-hint" />
          <Label htmlFor="fpi">{t("schedule.fpi")}</Label>
        </div>
        <p id="fpi-hint" className="text-xs text-muted-foreground">
          {t("schedule.fpiHint")}
        </p>
      </div>

      <section aria-labelledby="week-title" className="grid grid-cols-1 gap-2">
        <h2 id="week-title" className="text-lg font-semibold">
          {t("schedule.week")}
        </h2>
        {err("schedule_opens") && <p className="text-xs font-medium text-destructive">{err("schedule_opens")}</p>}
        <WeekTable week={week} setDay={setDay} err={err} />
      </section>

      <section aria-labelledby="exceptions-title" className="grid grid-cols-1 gap-2">
        <h2 id="exceptions-title" className="text-lg font-semibold">
          {t("schedule.exceptions")}
        </h2>
        <p className="text-xs text-muted-foreground">{t("schedule.exceptionsHint")}</p>
        <ExceptionsTable
          exceptions={exceptions}
          setException={setException}
          onDelete={(key) => {
            edited();
            setExceptions((rows) => rows.filter((r) => r.key !== key));
          }}
          err={err}
        />
        <Button type="button" variant="outline" size="sm" className="w-fit" onClick={addException}>
          {t("schedule.add")}
        </Button>
      </section>

      <section aria-labelledby="holidays-title" className="grid grid-cols-1 gap-2">
        <h2 id="holidays-title" className="text-lg font-semibold">
          {t("schedule.holidays")}
        </h2>
        <p className="text-xs text-muted-foreground">{t("schedule.holidaysHint")}</p>
        <div className="grid gap-4 sm:grid-cols-2">
          <HolidayChoiceFields
            id="schedule"
            choice={onHolidays}
            onChoice={(choice) => (edited(), setOnHolidays(choice))}
            calendar={{ value: calendarId, onChange: (id) => (edited(), setCalendarId(id ? Number(id) : null)) }}
            calendars={data.calendars}
            labels={{
              choice: t("schedule.onHolidays"),
              option: (o) => t(`schedule.onHolidays.${o}`),
              calendar: t("schedule.holidayCalendar"),
              selectCalendar: t("schedule.selectCalendar"),
              noCalendars: { text: t("schedule.noCalendars"), add: t("schedule.addCalendar") },
            }}
            errors={{ calendar: err("holiday_calendar_id") }}
          />
        </div>
      </section>

      <div className="flex flex-wrap gap-3">
        <Button type="submit" loading={busy}>
          {t("schedule.submit")}
        </Button>
        <Button asChild variant="outline">
          <Link to="/companySettings">{t("back")}</Link>
        </Button>
      </div>
    </form>
  );
}
