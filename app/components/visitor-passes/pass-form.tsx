import { Form, useNavigation } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { FormAlert } from "~/components/auth/form-parts";
import { usePageForm } from "~/components/forms/use-page-form";
import { CountryPicker } from "~/components/phone-field/country-picker";
import { PhoneInput } from "~/components/phone-field/phone-input";
import { Button } from "~/components/ui/button";
import { Checkbox } from "~/components/ui/checkbox";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { NativeSelect } from "~/components/ui/native-select";
import { SearchPicker, type PickerOption } from "~/components/ui/search-picker";
import { TimeInput } from "~/components/ui/time-input";
import { passSchema } from "~/schemas/visitor-passes";
import { parsePhone } from "~/utils/phone";
import { readableZone } from "~/utils/zone-label";

type Choice = { id: number; label: string };

/** What the invite form offers: the loader's choices and the defaults of a new pass. */
export type PassFormOptions = {
  doors: Choice[];
  groups: Choice[];
  /** Active users to host instead of the signed-in one; null: the signer hosts (they may not add users). */
  hosts: { id: number; label: string; email: string }[] | null;
  me: { id: number; name: string };
  /** The rules' group bounding guests' doors, by name; null: any door. */
  boundGroup: string | null;
  maxDays: number;
  timeZone: string;
  /** The country the phone starts in (the company's default). */
  region: string;
  today: string;
  language: "en" | "es";
};

/**
 * What the schema reads as the guest's phone: E.164 from the country and number as typed (the house's
 * pair, decision 0037), or the text as typed when it reads as no number, for the schema to refuse.
 */
function phoneValue(region: string, number: string): string {
  if (!number.trim()) return "";
  const r = parsePhone(region, number);
  return "e164" in r ? r.e164 : number.trim();
}

/**
 * The invite (issue 32, decision 0096): Conform over `passSchema`, the schema the action and the admin
 * API parse. The guest's phone is a country and a number, posted as E.164; the doors are several
 * doors or one device group; the visit is its dates and the daily hours in the company's zone.
 */
export function PassForm({ options: o }: { options: PassFormOptions }) {
  const { form, fields, err, formError, formProps, t } = usePageForm({ id: "visitor-pass", schema: passSchema, ns: "visitorPasses" });
  const navigation = useNavigation();
  const [by, setBy] = useState<"doors" | "group">("doors");
  const doorOptions = o.doors.map((d): PickerOption => ({ value: String(d.id), label: d.label }));
  const [doors, setDoors] = useState<PickerOption[]>([]);
  const [groupId, setGroupId] = useState("");
  const [times, setTimes] = useState({ start: "09:00", end: "17:00" });
  const [phone, setPhone] = useState({ region: o.region, number: "" });
  const me: PickerOption = { value: String(o.me.id), label: t("me", { name: o.me.name }) };
  const hostOptions = [me, ...(o.hosts ?? []).filter((h) => h.id !== o.me.id).map((h): PickerOption => ({ value: String(h.id), label: h.label, detail: h.email }))];
  const [host, setHost] = useState<PickerOption[]>([me]);
  const guestPhone = phoneValue(phone.region, phone.number);

  // Fields the schema reads from hidden inputs (the pickers, the phone) are checked again as they change, once checked.
  const recheck = useRef(() => {});
  recheck.current = () => {
    for (const f of [fields.deviceIds, fields.deviceGroupId, fields.guestPhone, fields.guestEmail]) if (f.errors) form.validate({ name: f.name });
  };
  useEffect(() => recheck.current(), [doors, groupId, by, guestPhone]);

  const pickerTexts = (placeholder: string, list: string) => ({ placeholder, list, noMatch: t("noMatch"), remove: (label: string) => t("removeChoice", { label }) });
  const doorsError = err(fields.deviceIds);

  return (
    <Form method="post" {...formProps} className="grid max-w-3xl gap-6">
      <FormAlert message={formError} />

      <fieldset className="grid gap-4 sm:grid-cols-2">
        <legend className="mb-3 text-lg font-semibold">{t("section.guest")}</legend>
        <Field label={t("guestName")} error={err(fields.guestName)} required className="sm:col-span-2">
          <Input id="pass-guestName" name={fields.guestName.name} maxLength={100} autoComplete="off" />
        </Field>
        <Field label={t("guestEmail")} hint={t("guestEmailHint")} error={err(fields.guestEmail)} className="sm:col-span-2">
          <Input id="pass-guestEmail" name={fields.guestEmail.name} type="email" maxLength={254} autoComplete="off" />
        </Field>
        <Field label={t("guestPhoneCountry")}>
          <CountryPicker id="pass-guestPhoneCountry" name="guestPhoneCountry" region={phone.region} onChange={(region) => setPhone((p) => ({ ...p, region }))} />
        </Field>
        <Field label={t("guestPhone")} hint={t("guestPhoneHint")} error={err(fields.guestPhone)}>
          <PhoneInput id="pass-guestPhone" region={phone.region} value={phone.number} onChange={(number) => setPhone((p) => ({ ...p, number }))} />
        </Field>
        <input type="hidden" name={fields.guestPhone.name} value={guestPhone} />
      </fieldset>

      <fieldset className="grid gap-4">
        <legend className="mb-3 text-lg font-semibold">{t("section.doors")}</legend>
        <div className="flex flex-wrap gap-x-6 gap-y-2" role="radiogroup" aria-label={t("section.doors")}>
          {(["doors", "group"] as const).map((k) => (
            <label key={k} className="flex items-center gap-2 text-sm">
              <input type="radio" name="doorsBy" value={k} checked={by === k} onChange={() => setBy(k)} className="size-4" />
              {t(`doorsBy.${k}`)}
            </label>
          ))}
        </div>
        {by === "doors" ? (
          <Field label={t("doorsPick")} error={doorsError} hint={o.boundGroup ? t("boundHint", { name: o.boundGroup }) : undefined} required>
            <SearchPicker
              id="pass-doors"
              name={fields.deviceIds.name}
              multiple
              keepEnter
              value={doors}
              onChange={setDoors}
              source={{ options: doorOptions }}
              texts={{ ...pickerTexts(t("doorsSearch"), t("doorsPick")), noMatch: o.doors.length ? t("noMatch") : t("noDoors") }}
            />
          </Field>
        ) : (
          <Field label={t("deviceGroup")} error={err(fields.deviceGroupId) ?? doorsError} hint={o.boundGroup ? t("boundHint", { name: o.boundGroup }) : undefined} required>
            <NativeSelect
              id="pass-deviceGroupId"
              name={fields.deviceGroupId.name}
              value={groupId}
              onChange={(e) => setGroupId(e.target.value)}
              options={o.groups.map((g) => ({ value: g.id, label: g.label }))}
            >
              <option value="">{t("chooseGroup")}</option>
            </NativeSelect>
          </Field>
        )}
      </fieldset>

      <fieldset className="grid gap-4 sm:grid-cols-2" aria-describedby="pass-zone">
        <legend className="mb-3 text-lg font-semibold">{t("section.visit")}</legend>
        <Field label={t("startDate")} error={err(fields.startDate)} required>
          <Input id="pass-startDate" name={fields.startDate.name} type="date" defaultValue={o.today} min={o.today} />
        </Field>
        <Field label={t("endDate")} error={err(fields.endDate)} hint={t("maxDaysHint", { count: o.maxDays })} required>
          <Input id="pass-endDate" name={fields.endDate.name} type="date" defaultValue={o.today} min={o.today} />
        </Field>
        <Field label={t("startTime")} error={err(fields.startTime)} required>
          <TimeInput id="pass-startTime" name={fields.startTime.name} step={300} value={times.start} onValueChange={(start) => setTimes((x) => ({ ...x, start }))} />
        </Field>
        <Field label={t("endTime")} error={err(fields.endTime)} required>
          <TimeInput id="pass-endTime" name={fields.endTime.name} step={300} value={times.end} onValueChange={(end) => setTimes((x) => ({ ...x, end }))} />
        </Field>
        <p id="pass-zone" className="-mt-2 text-xs text-muted-foreground sm:col-span-2">
          {t("timesHint", { zone: readableZone(o.timeZone) })}
        </p>
        <Field label={t("oneEntryOnly")} hint={t("oneEntryHint")} orientation="horizontal" className="sm:col-span-2">
          <Checkbox id="pass-oneEntry" name={fields.oneEntry.name} value="1" />
        </Field>
      </fieldset>

      <div className="grid gap-4 sm:grid-cols-2">
        <Field label={t("language")} error={err(fields.language)}>
          <NativeSelect
            id="pass-language"
            name={fields.language.name}
            defaultValue={o.language}
            options={(["en", "es"] as const).map((l) => ({ value: l, label: t(`lang.${l}`) }))}
          />
        </Field>
        {o.hosts && (
          <Field label={t("host")} hint={t("hostHint")} error={err(fields.hostUserId)}>
            <SearchPicker
              id="pass-host"
              name={fields.hostUserId.name}
              value={host}
              onChange={(next) => setHost(next.length ? next : [me])}
              source={{ options: hostOptions }}
              texts={pickerTexts(t("host"), t("host"))}
            />
          </Field>
        )}
        <Field label={t("hostText")} hint={t("hostTextHint")} orientation="horizontal" className="sm:col-span-2">
          <Checkbox id="pass-hostText" name={fields.hostText.name} value="1" />
        </Field>
      </div>

      <div>
        <Button type="submit" loading={navigation.state === "submitting"}>
          {t("create")}
        </Button>
      </div>
    </Form>
  );
}
