import { HolidayChoiceFields } from "~/components/holidays/holiday-choice-fields";
import { useFetcher } from "@remix-run/react";
import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { replyAccepted } from "~/components/forms/reply-accepted";
import { toast } from "~/components/toast/toast-store";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { NativeSelect } from "~/components/ui/native-select";
import { translateMessage } from "~/i18n/messages";
import { HOLIDAY_MSG, holidayFields } from "~/schemas/holidays";
import { ACCESS_TYPES, EKEY_MSG, scheduleForAccess, toWindow, windowErrors, type AccessType, type Schedule } from "~/schemas/ekeys";
import type { FormReply } from "~/utils/form-action.server";
import { AssignedList } from "./assigned-list";
import { assignFields, draftOfKey, freshDraft, groupSchedule, type Draft } from "./ekey-draft";
import { EkeyScheduleFields } from "./ekey-schedule-fields";
import { EkeyPreview } from "./ekey-preview";
import type { PanelData } from "./types";
import { useCore } from "./use-core";
import { groupKeyHolidayChoice } from "~/services/group-key-holidays";

/**
 * The key assignment panel of /modifyUser (docs/ARCHITECTURE.md §7.2). Every edit is validated and
 * previewed by the core in the browser; the server validates the same window again on assign.
 * With `disabled` (on /addUser) it is a read-only preview.
 */
export function EkeyPanel({ data, disabled = false }: { data: PanelData; disabled?: boolean }) {
  const { t } = useTranslation("users");
  const core = useCore();
  const fetcher = useFetcher<FormReply>();
  const fresh = () => freshDraft(data);
  const [draft, setDraft] = useState<Draft>(fresh);
  const [showErrors, setShowErrors] = useState(false);
  const [serverErrors, setServerErrors] = useState<Record<string, string[]>>({});

  const group = draft.type === "group" ? data.groups.find((g) => g.id === draft.keyId) : undefined;
  const zoneName = (group ? group.timeZone : data.zones.find((z) => z.id === draft.zoneId)?.name) ?? null;
  const calendar = data.calendars.find((c) => c.id === draft.calendarId);
  // A group key left on "ignore" follows its group's choice, as the server decides.
  const choice = group
    ? groupKeyHolidayChoice({ onHolidays: draft.onHolidays, holidayCalendarId: draft.calendarId }, group)
    : { onHolidays: draft.onHolidays, holidayCalendarId: draft.calendarId };
  const followsGroup = group && draft.onHolidays === "ignore" && choice.onHolidays !== "ignore";
  const onHolidays = choice.onHolidays;
  const dates = data.calendars.find((c) => c.id === choice.holidayCalendarId)?.dates;
  // The same window the server builds (app/services/door-decision.server.ts `keyHolidays`): the calendar's dates in the key's range.
  const window = useMemo(() => {
    const s = draft.schedule;
    const dated = draft.type === "group" || s.accessType !== "full_access";
    const holidays = holidayFields(onHolidays, dates, dated ? s.startDate : null, dated && draft.type !== "group" && !s.isNeverEnd ? s.endDate : null);
    return toWindow(s, zoneName, false, holidays);
  }, [draft.schedule, draft.type, onHolidays, dates, zoneName]);
  const clientErrors = useMemo(() => (core ? windowErrors(core.validate(window)) : {}), [core, window]);
  const errors: Record<string, string[]> = {
    ...(showErrors ? clientErrors : {}),
    ...(showErrors && draft.keyId == null ? { keyId: [EKEY_MSG.keyRequired] } : {}),
    ...(showErrors && draft.onHolidays !== "ignore" && !calendar ? { holidayCalendarId: [HOLIDAY_MSG.calendarRequired] } : {}),
    ...serverErrors,
  };
  const err = (k: string) => errors[k]?.map((m) => translateMessage(t, m, "users"));

  // The action answers with Conform's reply; after the spec's success messages the form resets (the loader reloads the assignments).
  useEffect(() => {
    const r = fetcher.data;
    if (fetcher.state !== "idle" || !r) return;
    const ok = replyAccepted(r.result);
    const fieldErrors = Object.fromEntries(Object.entries(r.result.error ?? {}).filter((e): e is [string, string[]] => !!e[0] && !!e[1]?.length));
    const message = r.message ?? r.result.error?.[""]?.[0] ?? Object.values(fieldErrors)[0]?.[0];
    if (message) toast({ type: ok ? "success" : "error", message: translateMessage(t, message, "users") });
    if (ok) {
      setDraft(fresh());
      setShowErrors(false);
    }
    setServerErrors(fieldErrors);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [fetcher.state, fetcher.data]);

  const update = (patch: Partial<Draft>) => {
    setDraft((d) => ({ ...d, ...patch }));
    setServerErrors({});
  };
  const patchSchedule = (patch: Partial<Schedule>) => update({ schedule: { ...draft.schedule, ...patch } });

  const select = (entryId: number | null) => {
    const k = data.keys.find((x) => x.entryId === entryId);
    setShowErrors(false);
    update(k ? draftOfKey(k, data.defaultZoneId) : fresh());
  };

  const chooseKey = (value: string) => {
    const id = value ? Number(value) : null;
    const g = draft.type === "group" ? data.groups.find((x) => x.id === id) : undefined;
    if (g) update({ keyId: id, schedule: groupSchedule(g, data.today), zoneId: g.timeZoneId });
    else update({ keyId: id });
  };

  const submit = () => {
    setShowErrors(true);
    if (draft.keyId == null || Object.keys(clientErrors).length || (draft.onHolidays !== "ignore" && !calendar)) return;
    fetcher.submit({ intent: "assign", ...assignFields(draft, data.userId) }, { method: "post" });
  };

  const s = draft.schedule;
  const locked = disabled || draft.type === "group";
  const custom = s.accessType !== "full_access";
  const mayAssign = draft.entryId ? data.can.modify : data.can.add;
  const label = (draft.type === "group" ? group?.fullName : data.devices.find((d) => d.id === draft.keyId)?.fullName) ?? "";
  // Devices the user already holds a key to (other than the key being modified): choosing one again is warned about in place.
  const heldDevices = new Map(data.keys.filter((k) => !k.isGroup && k.device && k.entryId !== draft.entryId).map((k) => [k.device!.id, k.device!.fullName]));
  const duplicate = draft.type === "device" && draft.keyId != null ? heldDevices.get(draft.keyId) : undefined;

  return (
    <section className="grid gap-4" aria-label={t("ekeys")} aria-disabled={disabled || undefined}>
      <h2 className="text-lg font-semibold">{t("ekeys")}</h2>
      {disabled ? (
        <p className="text-sm text-muted-foreground">{t("ekeysPreview")}</p>
      ) : (
        <AssignedList keys={data.keys} selected={draft.entryId} onSelect={select} canDelete={data.can.delete} />
      )}

      <fieldset disabled={disabled} className="grid gap-4 rounded-lg border p-4 disabled:opacity-60">
        <div className="flex flex-wrap gap-4" role="radiogroup" aria-label={t("keyDevice")}>
          {(["device", "group"] as const).map((type) => (
            <label key={type} className="flex items-center gap-2 text-sm">
              <input type="radio" name="ekey-type" checked={draft.type === type} onChange={() => update({ ...fresh(), type, entryId: null })} />
              {t(type === "device" ? "keyDevice" : "keyGroup")}
            </label>
          ))}
        </div>
        <Field label={t(draft.type === "device" ? "keyDevice" : "keyGroup")} error={err("keyId")}>
          <NativeSelect id="ekey-key" value={draft.keyId ?? ""} onChange={(e) => chooseKey(e.target.value)}>
            <option value="">{t("selectKey")}</option>
            {(draft.type === "device" ? data.devices : data.groups).map((o) => (
              <option key={o.id} value={o.id}>
                {draft.type === "device" && heldDevices.has(o.id) ? t("deviceHeld", { name: o.fullName }) : o.fullName}
              </option>
            ))}
          </NativeSelect>
        </Field>
        {duplicate && (
          <Alert variant="warning" data-testid="ekey-duplicate">
            <AlertDescription role="status">{t("duplicateDevice", { name: duplicate })}</AlertDescription>
          </Alert>
        )}
        {draft.type === "group" && <p className="text-xs text-muted-foreground">{t("groupSchedule")}</p>}
        <Field label={t("fobNumber")} hint={t("fobNumberHint")} error={err("fobNumber")}>
          <Input id="ekey-fob" value={draft.fob} maxLength={32} autoComplete="off" disabled={disabled} onChange={(e) => update({ fob: e.target.value })} />
        </Field>

        <div className="flex flex-wrap gap-4" role="radiogroup" aria-label={t("access")}>
          {ACCESS_TYPES.map((a) => (
            <label key={a} className="flex items-center gap-2 text-sm">
              <input
                type="radio"
                name="ekey-access"
                value={a}
                checked={s.accessType === a}
                disabled={locked}
                onChange={() => update({ schedule: scheduleForAccess(a as AccessType, data.today), zoneId: data.defaultZoneId })}
              />
              {t(a)}
            </label>
          ))}
        </div>

        {custom && (
          <EkeyScheduleFields
            schedule={s}
            patchSchedule={patchSchedule}
            zones={data.zones}
            zoneId={draft.zoneId}
            setZoneId={(zoneId) => update({ zoneId })}
            disabled={disabled}
            locked={locked}
            err={err}
          />
        )}

        <div className="grid gap-4 sm:grid-cols-2">
          <HolidayChoiceFields
            id="ekey"
            choice={draft.onHolidays}
            onChoice={(onHolidays) => update({ onHolidays })}
            calendar={{ value: draft.calendarId, onChange: (id) => update({ calendarId: id ? Number(id) : null }) }}
            calendars={data.calendars}
            labels={{
              choice: t("onHolidays"),
              option: (o) => t(`onHolidays.${o}`),
              calendar: t("holidayCalendar"),
              selectCalendar: t("selectCalendar"),
              hint: followsGroup
                ? t("onHolidays.followsGroup", { choice: t(`onHolidays.${group.onHolidays}`), calendar: data.calendars.find((c) => c.id === group.holidayCalendarId)?.name ?? "" })
                : undefined,
            }}
            errors={{ choice: err("onHolidays"), calendar: err("holidayCalendarId") }}
          />
        </div>

        {!disabled && (
          <div className="flex justify-end">
            <Button type="button" onClick={submit} loading={fetcher.state !== "idle"} disabled={!mayAssign}>
              {draft.entryId ? t("modify") : t("assign")}
            </Button>
          </div>
        )}
      </fieldset>

      {!disabled &&
        core &&
        draft.keyId != null &&
        (Object.keys(clientErrors).length ? <p className="text-sm text-muted-foreground">{t("previewInvalid")}</p> : <EkeyPreview core={core} window={window} label={label} />)}
    </section>
  );
}
