import { useTranslation } from "react-i18next";
import { TimeInput } from "~/components/ui/time-input";
import { ZoneSelect } from "~/components/zone-select";
import { Checkbox } from "~/components/ui/checkbox";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import type { Schedule } from "~/schemas/ekeys";
import type { Days } from "~core";
import type { ZoneOption } from "./types";

type Props = {
  schedule: Schedule;
  patchSchedule: (patch: Partial<Schedule>) => void;
  zones: ZoneOption[];
  zoneId: number | null;
  setZoneId: (id: number | null) => void;
  /** The panel is a read-only preview. */
  disabled: boolean;
  /** A group key keeps the group's schedule: only its start date may change. */
  locked: boolean;
  err: (field: string) => string[] | undefined;
};

/** A custom or one-time key's window: dates, never ends, all day, weekdays, times and the zone they are read in. */
export function EkeyScheduleFields({ schedule: s, patchSchedule, zones, zoneId, setZoneId, disabled, locked, err }: Props) {
  const { t } = useTranslation("users");
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <Field label={t("startDate")} error={err("startDate")}>
        <Input id="ekey-startDate" type="date" value={s.startDate ?? ""} disabled={disabled} onChange={(e) => patchSchedule({ startDate: e.target.value || null })} />
      </Field>
      <Field label={t("endDate")} error={err("endDate")}>
        <Input id="ekey-endDate" type="date" value={s.endDate ?? ""} disabled={locked || s.isNeverEnd} onChange={(e) => patchSchedule({ endDate: e.target.value || null })} />
      </Field>
      <Field label={t("neverEnds")} orientation="horizontal">
        <Checkbox
          id="ekey-neverEnds"
          checked={s.isNeverEnd}
          disabled={locked}
          onCheckedChange={(c) => patchSchedule({ isNeverEnd: c === true, endDate: c === true ? null : s.endDate })}
        />
      </Field>
      <Field label={t("allDay")} orientation="horizontal">
        <Checkbox
          id="ekey-allDay"
          checked={s.isAllDay}
          disabled={locked}
          onCheckedChange={(c) => patchSchedule({ isAllDay: c === true, ...(c === true && { startTime: null, endTime: null }) })}
        />
      </Field>
      <fieldset className="sm:col-span-2">
        <legend className="mb-2 text-sm font-medium">{t("days")}</legend>
        <div className="flex flex-wrap gap-3">
          {s.days.map((on, i) => (
            <Field key={i} label={t(`day.${i}`)} orientation="horizontal">
              <Checkbox
                id={`ekey-day-${i}`}
                checked={on}
                disabled={locked}
                onCheckedChange={(c) => patchSchedule({ days: s.days.map((d, j) => (j === i ? c === true : d)) as Days })}
              />
            </Field>
          ))}
        </div>
        {err("days") && <p className="mt-1 text-sm text-destructive">{err("days")![0]}</p>}
      </fieldset>
      {/* The window's two ends; an error on the pair is reported at its start. */}
      {(["startTime", "endTime"] as const).map((k) => (
        <Field key={k} label={t(k)} error={k === "startTime" ? err(k) : undefined}>
          <TimeInput id={`ekey-${k}`} step={300} value={s[k] ?? ""} disabled={locked || s.isAllDay} onValueChange={(v) => patchSchedule({ [k]: v || null })} />
        </Field>
      ))}
      <Field label={t("timeZone")} error={err("zone")} className="sm:col-span-2">
        <ZoneSelect
          id="ekey-zone"
          zones={zones}
          placeholder={t("selectKey")}
          value={zoneId ?? ""}
          disabled={locked}
          onChange={(e) => setZoneId(e.target.value ? Number(e.target.value) : null)}
        />
      </Field>
    </div>
  );
}
