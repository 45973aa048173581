import type { SubmissionResult } from "@conform-to/react";
import { Link, useNavigation, useSubmit } from "@remix-run/react";
import { useId, useMemo, useRef, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { FormAlert } from "~/components/auth/form-parts";
import { useCore } from "~/components/ekeys/use-core";
import { TrashIcon } from "~/components/users/icons";
import { Button } from "~/components/ui/button";
import { Checkbox } from "~/components/ui/checkbox";
import { Input } from "~/components/ui/input";
import { Switch } from "~/components/ui/switch";
import { Label } from "~/components/ui/label";
import { translateMessage } from "~/i18n/messages";
import { scheduleErrorKey, scheduleErrors, scheduleOpenSchema, scheduleWindow } from "~/schemas/settings";
import type { ScheduleOpen } from "~/services/scheduled-open.server";
import { issuesByField } from "~/utils/field-errors";
import { ConfirmButton } from "./confirm-button";

type Row = { openWholeDay: boolean; openTime: string; closeTime: string };
type ExceptionRow = Row & { key: number; exceptionDate: string };

/** The post as plain form fields in Conform's names (`schedule_opens[2].closeTime`), flags as '1'/'0'. */
function formFields(wire: { fpi: boolean; schedule_opens: Record<string, unknown>[]; schedule_exceptions: Record<string, unknown>[] }) {
  const out: Record<string, string> = { fpi: wire.fpi ? "1" : "0" };
  for (const list of ["schedule_opens", "schedule_exceptions"] as const) {
    wire[list].forEach((row, i) => {
      for (const [k, v] of Object.entries(row)) out[`${list}[${i}].${k}`] = typeof v === "boolean" ? (v ? "1" : "0") : String(v);
    });
  }
  return out;
}

/** Conform's reply keyed by the form's own error keys (`schedule_opens.2.closeTime`, `_` for the whole form). */
function replyErrors(result?: SubmissionResult<string[]>) {
  const out: Record<string, string[]> = {};
  for (const [name, messages] of Object.entries(result?.error ?? {})) if (messages?.length) out[name ? name.replace(/\[(\d+)\]/g, ".$1") : "_"] = messages;
  return out;
}

/**
 * The /scheduleOpen form (docs/ARCHITECTURE.md §7.2): FPI, Monday to Sunday and the exceptions. Checked
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
  const [week, setWeek] = useState<Row[]>(data.week.map(({ openWholeDay, openTime, closeTime }) => ({ openWholeDay, openTime, closeTime })));
  const [exceptions, setExceptions] = useState<ExceptionRow[]>(
    data.exceptions.map((e, key) => ({ key, exceptionDate: e.date, openWholeDay: e.openWholeDay, openTime: e.openTime, closeTime: e.closeTime })),
  );
  const [attempted, setAttempted] = useState(false);
  const serverErrors = useMemo(() => replyErrors(lastResult), [lastResult]);
  const [staleServerErrors, setStaleServerErrors] = useState<Record<string, string[]> | undefined>(undefined);

  const wire = useMemo(
    () => ({ fpi, schedule_opens: week.map((r, scheduleDay) => ({ scheduleDay, ...r })), schedule_exceptions: exceptions.map(({ key: _key, ...e }) => e) }),
    [fpi, week, exceptions],
  );
  const clientErrors = useMemo(() => {
    const parsed = scheduleOpenSchema.safeParse(wire);
    if (!parsed.success) return issuesByField(parsed.error.issues, scheduleErrorKey);
    return core ? scheduleErrors(core.validate(scheduleWindow(parsed.data, data.tz))) : {};
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
        {/* On a phone the time fields need more than the screen: the table scrolls in its own box, the page does not. */}
        <div className="overflow-x-auto">
          <table className="w-full max-w-2xl text-sm" data-testid="week">
            <thead>
              <tr className="text-left text-muted-foreground">
                <th className="py-1 pr-3 font-medium">{t("schedule.day")}</th>
                <th className="py-1 pr-3 font-medium">{t("schedule.open")}</th>
                <th className="py-1 pr-3 font-medium">{t("schedule.openTime")}</th>
                <th className="py-1 pr-3 font-medium">{t("schedule.closeTime")}</th>
              </tr>
            </thead>
            <tbody>
              {week.map((row, i) => {
                const day = t(`day.${i}`);
                return (
                  <tr key={i} className="border-t align-top">
                    <th scope="row" className="py-2 pr-3 text-left font-medium">
                      {day}
                    </th>
                    <td className="py-2 pr-3">
                      <Checkbox
                        checked={row.openWholeDay}
                        onCheckedChange={(on) => setDay(i, { openWholeDay: on === true })}
                        aria-label={t("schedule.openDay", { day })}
                        className="mt-2.5"
                      />
                    </td>
                    <TimeCell
                      label={t("schedule.openTimeOf", { day })}
                      value={row.openTime}
                      disabled={!row.openWholeDay}
                      error={err(`schedule_opens.${i}.openTime`)}
                      onChange={(v) => setDay(i, { openTime: v })}
                    />
                    <TimeCell
                      label={t("schedule.closeTimeOf", { day })}
                      value={row.closeTime}
                      disabled={!row.openWholeDay}
                      error={err(`schedule_opens.${i}.closeTime`)}
                      onChange={(v) => setDay(i, { closeTime: v })}
                    />
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      </section>

      <section aria-labelledby="exceptions-title" className="grid grid-cols-1 gap-2">
        <h2 id="exceptions-title" className="text-lg font-semibold">
          {t("schedule.exceptions")}
        </h2>
        <p className="text-xs text-muted-foreground">{t("schedule.exceptionsHint")}</p>
        {exceptions.length === 0 ? (
          <p className="text-sm text-muted-foreground">{t("schedule.noExceptions")}</p>
        ) : (
          <div className="overflow-x-auto">
            <table className="w-full max-w-3xl text-sm" data-testid="exceptions">
              <thead>
                <tr className="text-left text-muted-foreground">
                  <th className="py-1 pr-3 font-medium">{t("schedule.date")}</th>
                  <th className="py-1 pr-3 font-medium">{t("schedule.open")}</th>
                  <th className="py-1 pr-3 font-medium">{t("schedule.openTime")}</th>
                  <th className="py-1 pr-3 font-medium">{t("schedule.closeTime")}</th>
                  <th className="py-1" />
                </tr>
              </thead>
              <tbody>
                {exceptions.map((row, i) => {
                  const n = i + 1;
                  const at = `schedule_exceptions.${i}`;
                  return (
                    <tr key={row.key} className="border-t align-top">
                      <td className="py-2 pr-3">
                        <Input
                          type="date"
                          value={row.exceptionDate}
                          onChange={(e) => setException(row.key, { exceptionDate: e.target.value })}
                          aria-label={t("schedule.dateOf", { n })}
                          aria-invalid={err(`${at}.exceptionDate`) ? true : undefined}
                          aria-describedby={err(`${at}.exceptionDate`) ? `${at}-date-error` : undefined}
                        />
                        {err(`${at}.exceptionDate`) && (
                          <p id={`${at}-date-error`} className="mt-1 text-xs font-medium text-destructive">
                            {err(`${at}.exceptionDate`)}
                          </p>
                        )}
                      </td>
                      <td className="py-2 pr-3">
                        <Checkbox
                          checked={row.openWholeDay}
                          onCheckedChange={(on) => setException(row.key, { openWholeDay: on === true })}
                          aria-label={t("schedule.openOf", { n })}
                          className="mt-2.5"
                        />
                      </td>
                      <TimeCell
                        label={t("schedule.openTimeOfException", { n })}
                        value={row.openTime}
                        disabled={!row.openWholeDay}
                        error={err(`${at}.openTime`)}
                        onChange={(v) => setException(row.key, { openTime: v })}
                      />
                      <TimeCell
                        label={t("schedule.closeTimeOfException", { n })}
                        value={row.closeTime}
                        disabled={!row.openWholeDay}
                        error={err(`${at}.closeTime`)}
                        onChange={(v) => setException(row.key, { closeTime: v })}
                      />
                      <td className="py-2">
                        <ConfirmButton
                          trigger={
                            <Button type="button" variant="ghost" size="icon-sm" aria-label={t("schedule.delete", { n })}>
                              <TrashIcon />
                            </Button>
                          }
                          title={t("schedule.deleteTitle")}
                          description={row.exceptionDate ? t("schedule.deleteDescription", { date: row.exceptionDate }) : t("schedule.deleteUndated")}
                          confirmLabel={t("schedule.deleteConfirm")}
                          cancelLabel={t("cancel")}
                          onConfirm={() => {
                            edited();
                            setExceptions((rows) => rows.filter((r) => r.key !== row.key));
                          }}
                        />
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
        <Button type="button" variant="outline" size="sm" className="w-fit" onClick={addException}>
          {t("schedule.add")}
        </Button>
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

/** Unchecking a day or an exception clears its times (docs/ARCHITECTURE.md §7.2). */
const clear = <T extends Row>(r: T): T => (r.openWholeDay ? r : { ...r, openTime: "", closeTime: "" });

function TimeCell({ label, value, disabled, error, onChange }: { label: string; value: string; disabled: boolean; error?: string; onChange: (v: string) => void }) {
  const id = useId();
  return (
    <td className="py-2 pr-3">
      <Input
        type="time"
        step={300}
        value={value}
        disabled={disabled}
        onChange={(e) => onChange(e.target.value)}
        aria-label={label}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      />
      {error && (
        <p id={`${id}-error`} className="mt-1 text-xs font-medium text-destructive">
          {error}
        </p>
      )}
    </td>
  );
}
