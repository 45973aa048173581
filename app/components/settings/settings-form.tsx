import { usePageForm } from "~/components/forms/use-page-form";
import { Form, Link, useNavigation } from "@remix-run/react";
import { useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { CountryPicker } from "~/components/phone-field/country-picker";
import { PhoneInput } from "~/components/phone-field/phone-input";
import { ZoneSelect } from "~/components/zone-select";
import { FormAlert } from "~/components/auth/form-parts";
import { ActivityLogCard } from "~/components/settings/activity-log-card";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { NativeSelect } from "~/components/ui/native-select";
import { Switch } from "~/components/ui/switch";
import { companySettingsSchema, FIRMWARE_CHOICES, PASSWORD_EXPIRY_MONTHS, RESET_METHODS, SECONDARY_ACTIONS } from "~/schemas/settings";
import type { SettingsRow } from "~/services/settings.server";
import { nationalForField, pickerRegion, regionOf } from "~/utils/phone";

type Props = { settings: SettingsRow | null; zones: { id: number; label: string }[]; canModify: boolean };

const HOURS = Array.from({ length: 24 }, (_, i) => i + 1);

/** The /companySettings form (docs/ARCHITECTURE.md §7.1); conform + the shared zod schema in the browser and on the server. */
export function SettingsForm({ settings: s, zones, canModify }: Props) {
  const { t } = useTranslation("settings");
  const busy = useNavigation().state === "submitting";
  const [mode, setMode] = useState(s?.passwordResetSecurity ?? "email");
  // Phones are E.164 (decision 0037): the pickers hold regions and post calling codes.
  const [defaultRegion, setDefaultRegion] = useState(pickerRegion(s?.defaultCountryCode ?? "001"));
  const [resetRegion, setResetRegion] = useState(regionOf(s?.passwordResetPhone) as string | undefined);
  const [resetPhone, setResetPhone] = useState(nationalForField(s?.passwordResetPhone));
  const { fields, err, formError, formProps } = usePageForm({ id: "company-settings", schema: companySettingsSchema, ns: "settings" });

  const toggle = (name: keyof typeof fields, label: string, on: boolean, hint?: ReactNode) => (
    <Field label={label} hint={hint} orientation="horizontal">
      <Switch name={fields[name].name} defaultChecked={on} disabled={!canModify} />
    </Field>
  );
  const hourOptions = HOURS.map((h) => (
    <option key={h} value={h}>
      {t("hours", { count: h })}
    </option>
  ));

  return (
    <Form method="post" {...formProps} className="grid gap-6">
      <FormAlert message={formError} />
      <fieldset disabled={!canModify} className="contents">
        <Card>
          <CardHeader>
            <CardTitle>{t("section.access")}</CardTitle>
          </CardHeader>
          <CardContent className="grid gap-5 md:grid-cols-2">
            {toggle("multiPhoneLogin", t("multiPhoneLogin"), !!s?.isMultiPhoneLogin, t("multiPhoneLoginHint"))}
            <div className="grid content-start gap-2">
              {toggle("scheduleOpen", t("scheduleOpen"), !!s?.scheduleOpen, s ? t("scheduleOpenHint") : t("scheduleOpenSaveFirst"))}
              {s ? (
                <Button asChild variant="outline" size="sm" className="w-fit">
                  <Link to="/scheduleOpen" aria-label={t("scheduleOpenSetLabel")}>
                    {t("scheduleOpenSet")}
                  </Link>
                </Button>
              ) : (
                <Button type="button" variant="outline" size="sm" className="w-fit" disabled aria-label={t("scheduleOpenSetLabel")}>
                  {t("scheduleOpenSet")}
                </Button>
              )}
            </div>
            <Field label={t("offlineReconnect")} error={err(fields.offlineReconnect)}>
              <NativeSelect name={fields.offlineReconnect.name} defaultValue={s?.offlineReconnectHours ?? 24}>
                {hourOptions}
              </NativeSelect>
            </Field>
            <Field label={t("ekeyDuration")} error={err(fields.ekeyDuration)}>
              <NativeSelect name={fields.ekeyDuration.name} defaultValue={s?.ekeyDurationHours ?? 24}>
                {hourOptions}
              </NativeSelect>
            </Field>
            <Field label={t("timeZone")} error={err(fields.defaultTimeZoneId)} required>
              <ZoneSelect zones={zones} placeholder={t("chooseZone")} name={fields.defaultTimeZoneId.name} defaultValue={s?.defaultTimeZoneId ?? ""} />
            </Field>
            <Field label={t("countryCode")} error={err(fields.defaultCountryCode)} required>
              <CountryPicker name={fields.defaultCountryCode.name} region={defaultRegion} onChange={setDefaultRegion} />
            </Field>
            {/* What each does at the door (decision 0116): the hints are the control's description. */}
            <Field label={t("allowedFirmware")} hint={t("allowedFirmwareHint")} error={err(fields.allowedFirmware)}>
              <NativeSelect
                name={fields.allowedFirmware.name}
                defaultValue={s?.allowedFirmware ?? "All Users"}
                options={FIRMWARE_CHOICES.map((f) => ({ value: f, label: t(`firmware.${f}`) }))}
              />
            </Field>
            {toggle("forceFirmwareUpdate", t("forceFirmware"), !!s?.isForceFirmwareUpdate, t("forceFirmwareHint"))}
            {/* Staged rollouts (decision 0094): when forced offers may go out, and sitting rollouts out. */}
            <fieldset className="grid gap-2" aria-describedby="firmware-window-hint">
              <legend className="mb-2 text-sm font-medium">{t("firmwareWindow")}</legend>
              <div className="grid grid-cols-2 gap-3">
                <Field label={t("firmwareWindowStart")} error={err(fields.firmwareWindowStart)}>
                  <Input type="time" name={fields.firmwareWindowStart.name} defaultValue={s?.firmwareWindowStart ?? ""} />
                </Field>
                <Field label={t("firmwareWindowEnd")} error={err(fields.firmwareWindowEnd)}>
                  <Input type="time" name={fields.firmwareWindowEnd.name} defaultValue={s?.firmwareWindowEnd ?? ""} />
                </Field>
              </div>
              <p id="firmware-window-hint" className="text-xs text-muted-foreground">
                {t("firmwareWindowHint")}
              </p>
            </fieldset>
            <Field label={t("rolloutDeferredUntil")} hint={t("rolloutDeferredHint")} error={err(fields.rolloutDeferredUntil)}>
              <Input type="date" name={fields.rolloutDeferredUntil.name} defaultValue={s?.rolloutDeferredUntil ?? ""} />
            </Field>
            <Button asChild variant="outline" size="sm" className="w-fit self-end">
              <Link to="/setFobProgrammers">{t("fobProgrammers")}</Link>
            </Button>
          </CardContent>
        </Card>

        <Card>
          <CardHeader>
            <CardTitle>{t("section.security")}</CardTitle>
          </CardHeader>
          <CardContent className="grid gap-5 md:grid-cols-2">
            <Field label={t("passwordExpiry")} error={err(fields.passwordExpiryMonths)}>
              <NativeSelect
                name={fields.passwordExpiryMonths.name}
                defaultValue={s?.passwordExpiryMonths ?? 0}
                options={PASSWORD_EXPIRY_MONTHS.map((m) => ({ value: m, label: t(`expiry.${m}`) }))}
              />
            </Field>
            <div className="grid content-start gap-4">
              {toggle("biometricSecurity", t("biometric"), !!s?.biometricSecurity)}
              {toggle("require2fa", t("twoFactor"), !!s?.require2fa)}
              {toggle("alertTexts", t("alertTexts"), !!s?.alertTexts, t("alertTextsHint"))}
            </div>
          </CardContent>
        </Card>

        <Card>
          <CardHeader>
            <CardTitle>{t("section.passwordReset")}</CardTitle>
          </CardHeader>
          <CardContent className="grid gap-5 md:grid-cols-2">
            <Field label={t("resetMode")} error={err(fields.passwordResetSecurity)}>
              <NativeSelect
                name={fields.passwordResetSecurity.name}
                value={mode}
                onChange={(e) => setMode(e.target.value as typeof mode)}
                options={RESET_METHODS.map((m) => ({ value: m, label: t(`reset.${m}`) }))}
              />
            </Field>
            {mode === "text" && (
              <Field label={t("secondaryAction")} error={err(fields.passwordResetSecondaryAction)}>
                <NativeSelect
                  name={fields.passwordResetSecondaryAction.name}
                  defaultValue={s?.passwordResetSecondaryAction ?? "nothing"}
                  options={SECONDARY_ACTIONS.map((a) => ({ value: a, label: t(`secondary.${a}`) }))}
                />
              </Field>
            )}
            {mode === "admin" && (
              <div className="grid gap-4 sm:grid-cols-2">
                <Field label={t("resetPhoneCountry")} error={err(fields.passwordResetPhoneCountry)} required>
                  <CountryPicker name={fields.passwordResetPhoneCountry.name} region={resetRegion ?? defaultRegion} onChange={setResetRegion} />
                </Field>
                <Field label={t("resetPhone")} hint={t("resetPhoneHint")} error={err(fields.passwordResetPhone)} required>
                  <PhoneInput name={fields.passwordResetPhone.name} region={resetRegion ?? defaultRegion} value={resetPhone} onChange={setResetPhone} />
                </Field>
              </div>
            )}
          </CardContent>
        </Card>

        <ActivityLogCard settings={s} fields={fields} err={err} />
      </fieldset>

      {canModify && (
        <div>
          <Button type="submit" loading={busy}>
            {t("save")}
          </Button>
        </div>
      )}
    </Form>
  );
}
