import { useFetcher } from "@remix-run/react";
import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { ZoneSelect } from "~/components/zone-select";
import { toast } from "~/components/toast/toast-store";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Checkbox } from "~/components/ui/checkbox";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { NativeSelect } from "~/components/ui/native-select";
import { translateMessage } from "~/i18n/messages";
import { ACCESS_TYPES, MSG, scheduleForAccess, toWindow, windowErrors, type AccessType, type Schedule } from "~/schemas/ekeys";
import type { FormReply } from "~/utils/form-action.server";
import type { Days } from "~core";
import { AssignedList } from "./assigned-list";
import { EkeyPreview } from "./ekey-preview";
import type { GroupOption, PanelData } from "./types";
import { useCore } from "./use-core";

type Draft = { type: "device" | "group"; eKey: number | null; schedule: Schedule; zoneId: number | null; entryId: number | null; fob: string };

const groupSchedule = (g: GroupOption, today: string): Schedule => ({
  accessType: "custom_access",
  startDate: today,
  endDate: null,
  startTime: g.isAllDay ? null : g.startAt,
  endTime: g.isAllDay ? null : g.endAt,
  days: g.days,
  isNeverEnd: true,
  isAllDay: g.isAllDay,
});

/**
 * The key assignment panel of /modifyUser (docs/ARCHITECTURE.md §7.2). Every edit is validated and
 * previewed by the core in the browser; the server validates the same window again on assign.
 * With `disabled` (on /addUser) it is a read-only preview.
 */
export function EkeyPanel({ data, disabled = false }: { data: PanelData; disabled?: boolean }) {
  const { t } = useTranslation("users");
  const core = useCore();
  const fetcher = useFetcher<FormReply>();
  const fresh = (): Draft => ({ type: "device", eKey: null, schedule: scheduleForAccess("full_access", data.today), zoneId: data.defaultZoneId, entryId: null, fob: "" });
  const [draft, setDraft] = useState<Draft>(fresh);
  const [showErrors, setShowErrors] = useState(false);
  const [serverErrors, setServerErrors] = useState<Record<string, string[]>>({});

  const group = draft.type === "group" ? data.groups.find((g) => g.id === draft.eKey) : undefined;
  const zoneName = (group ? group.timeZone : data.zones.find((z) => z.id === draft.zoneId)?.name) ?? null;
  const window = useMemo(() => toWindow(draft.schedule, zoneName), [draft.schedule, zoneName]);
  const clientErrors = useMemo(() => (core ? windowErrors(core.validate(window)) : {}), [core, window]);
  const errors: Record<string, string[]> = {
    ...(showErrors ? clientErrors : {}),
    ...(showErrors && draft.eKey == null ? { eKey: [MSG.keyRequired] } : {}),
    ...serverErrors,
  };
  const err = (k: string) => errors[k]?.map((m) => translateMessage(t, m, "users"));

  // The action answers with Conform's reply; after the spec's success messages the form resets (the loader reloads the assignments).
  useEffect(() => {
    const r = fetcher.data;
    if (fetcher.state !== "idle" || !r) return;
    const ok = r.result.status === "success";
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
    if (!k) return update(fresh());
    update({
      entryId: k.entryId,
      type: k.isGroup ? "group" : "device",
      eKey: k.isGroup ? (k.group?.id ?? null) : (k.device?.id ?? null),
      zoneId: k.timeZoneId ?? data.defaultZoneId,
      fob: k.fobDeviceId ?? "",
      schedule: {
        accessType: k.accessType,
        startDate: k.startDate,
        endDate: k.endDate,
        startTime: k.startTime,
        endTime: k.endTime,
        days: k.days,
        isNeverEnd: k.isNeverEnd,
        isAllDay: k.isAllDay,
      },
    });
  };

  const chooseKey = (value: string) => {
    const id = value ? Number(value) : null;
    const g = draft.type === "group" ? data.groups.find((x) => x.id === id) : undefined;
    // docs/ARCHITECTURE.md §7.2: a group forces custom access with the group's schedule, never ending.
    if (g) update({ eKey: id, schedule: groupSchedule(g, data.today), zoneId: g.timeZoneId });
    else update({ eKey: id });
  };

  const submit = () => {
    setShowErrors(true);
    if (draft.eKey == null || Object.keys(clientErrors).length) return;
    const s = draft.schedule;
    const payload = {
      userId: data.userId,
      eKey: draft.eKey,
      type: draft.type,
      status: s.accessType === "one_time_access" ? "2" : "1",
      FOBDeviceId: draft.fob.trim() || null,
      startDate: s.startDate,
      startTime: s.startTime,
      endDate: s.endDate,
      endTime: s.endTime,
      accessType: s.accessType,
      isNeverEnd: s.isNeverEnd ? "1" : "0",
      isAllDay: s.isAllDay ? "1" : "0",
      entryId: draft.entryId,
      scheduleDays: s.days.map((d) => (d ? "1" : "0")).join(""),
      zone: draft.zoneId,
    };
    // Posted as plain fields (absent = null), parsed by the action with the API's schema.
    const fields = Object.entries(payload).filter((e): e is [string, string | number] => e[1] != null);
    fetcher.submit({ intent: "assign", ...Object.fromEntries(fields) }, { method: "post" });
  };

  const s = draft.schedule;
  const locked = disabled || draft.type === "group";
  const custom = s.accessType !== "full_access";
  const mayAssign = draft.entryId ? data.can.modify : data.can.add;
  const label = (draft.type === "group" ? group?.fullName : data.devices.find((d) => d.id === draft.eKey)?.fullName) ?? "";
  // Devices the user already holds a key to (other than the key being modified): choosing one again is warned about in place.
  const heldDevices = new Map(data.keys.filter((k) => !k.isGroup && k.device && k.entryId !== draft.entryId).map((k) => [k.device!.id, k.device!.fullName]));
  const duplicate = draft.type === "device" && draft.eKey != null ? heldDevices.get(draft.eKey) : undefined;

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
        <Field label={t(draft.type === "device" ? "keyDevice" : "keyGroup")} error={err("eKey")}>
          <NativeSelect id="ekey-key" value={draft.eKey ?? ""} onChange={(e) => chooseKey(e.target.value)}>
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
        <Field label={t("fobNumber")} hint={t("fobNumberHint")} error={err("FOBDeviceId")}>
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
          <div className="grid gap-4 sm:grid-cols-2">
            <Field label={t("startDate")} error={err("startDate")}>
              <Input id="ekey-startDate" type="date" value={s.startDate ?? ""} disabled={disabled} onChange={(e) => patchSchedule({ startDate: e.target.value || null })} />
            </Field>
            <Field label={t("endDate")} error={err("endDate")}>
              <Input id="ekey-endDate" type="date" value={s.endDate ?? ""} disabled={locked || s.isNeverEnd} onChange={(e) => patchSchedule({ endDate: e.target.value || null })} />
            </Field>
            <div className="flex items-center gap-2">
              <Checkbox
                id="ekey-neverEnds"
                checked={s.isNeverEnd}
                disabled={locked}
                onCheckedChange={(c) => patchSchedule({ isNeverEnd: c === true, endDate: c === true ? null : s.endDate })}
              />
              <Label htmlFor="ekey-neverEnds">{t("neverEnds")}</Label>
            </div>
            <div className="flex items-center gap-2">
              <Checkbox
                id="ekey-allDay"
                checked={s.isAllDay}
                disabled={locked}
                onCheckedChange={(c) => patchSchedule({ isAllDay: c === true, ...(c === true && { startTime: null, endTime: null }) })}
              />
              <Label htmlFor="ekey-allDay">{t("allDay")}</Label>
            </div>
            <fieldset className="sm:col-span-2">
              <legend className="mb-2 text-sm font-medium">{t("days")}</legend>
              <div className="flex flex-wrap gap-3">
                {s.days.map((on, i) => (
                  <div key={i} className="flex items-center gap-1.5">
                    <Checkbox
                      id={`ekey-day-${i}`}
                      checked={on}
                      disabled={locked}
                      onCheckedChange={(c) => patchSchedule({ days: s.days.map((d, j) => (j === i ? c === true : d)) as Days })}
                    />
                    <Label htmlFor={`ekey-day-${i}`}>{t(`day.${i}`)}</Label>
                  </div>
                ))}
              </div>
              {err("days") && <p className="mt-1 text-sm text-destructive">{err("days")![0]}</p>}
            </fieldset>
            <Field label={t("startTime")} error={err("startTime")}>
              <Input
                id="ekey-startTime"
                type="time"
                step={300}
                value={s.startTime ?? ""}
                disabled={locked || s.isAllDay}
                onChange={(e) => patchSchedule({ startTime: e.target.value || null })}
              />
            </Field>
            <Field label={t("endTime")}>
              <Input
                id="ekey-endTime"
                type="time"
                step={300}
                value={s.endTime ?? ""}
                disabled={locked || s.isAllDay}
                onChange={(e) => patchSchedule({ endTime: e.target.value || null })}
              />
            </Field>
            <Field label={t("timeZone")} error={err("zone")} className="sm:col-span-2">
              <ZoneSelect
                id="ekey-zone"
                zones={data.zones}
                placeholder={t("selectKey")}
                value={draft.zoneId ?? ""}
                disabled={locked}
                onChange={(e) => update({ zoneId: e.target.value ? Number(e.target.value) : null })}
              />
            </Field>
          </div>
        )}

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
        draft.eKey != null &&
        (Object.keys(clientErrors).length ? <p className="text-sm text-muted-foreground">{t("previewInvalid")}</p> : <EkeyPreview core={core} window={window} label={label} />)}
    </section>
  );
}
