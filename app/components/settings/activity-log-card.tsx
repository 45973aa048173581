import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { HOT_DAYS, RETENTION_ACTIONS, RETENTION_DAYS, RETENTION_MODES } from "~/schemas/settings";
import type { SettingsRow } from "~/services/settings.server";

type FieldMeta = { name: string; errors?: string[]; dirty: boolean };
type Props = {
  settings: SettingsRow | null;
  fields: Record<"activityHotDays" | "activityRetentionMode" | "activityRetentionDays" | "activityRetentionAction", FieldMeta>;
  err: (field: FieldMeta) => string | undefined;
};

/** The company's activity log policy: the days kept at hand, how long activity is kept, and what happens to it then. */
export function ActivityLogCard({ settings: s, fields, err }: Props) {
  const { t } = useTranslation("settings");
  const id = useId();
  const [mode, setMode] = useState<(typeof RETENTION_MODES)[number]>(s?.activityRetentionDays == null ? "indefinitely" : "days");
  // Without a limit nothing expires: the days and the action are not posted, so they keep their stored values.
  const kept = mode === "indefinitely";
  const modeError = err(fields.activityRetentionMode);
  const actionError = err(fields.activityRetentionAction);

  return (
    <Card>
      <CardHeader>
        <CardTitle>{t("section.activity")}</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-5 md:grid-cols-2">
        <Field label={t("activityHotDays")} hint={t("activityHotDaysHint", HOT_DAYS)} error={err(fields.activityHotDays)}>
          <Input type="number" inputMode="numeric" min={HOT_DAYS.min} max={HOT_DAYS.max} name={fields.activityHotDays.name} defaultValue={s?.activityHotDays ?? HOT_DAYS.default} />
        </Field>

        <fieldset className="grid content-start gap-2" aria-describedby={modeError ? `${id}-mode-error` : undefined}>
          <legend className="mb-1 text-sm font-medium">{t("activityRetention")}</legend>
          {RETENTION_MODES.map((m) => (
            <label key={m} className="flex items-center gap-2 text-sm">
              <input type="radio" name={fields.activityRetentionMode.name} value={m} checked={mode === m} onChange={() => setMode(m)} />
              {t(`retention.${m}`)}
            </label>
          ))}
          {modeError && (
            <p id={`${id}-mode-error`} className="text-xs font-medium text-destructive">
              {modeError}
            </p>
          )}
          <Field label={t("activityRetentionDays")} hint={t("activityRetentionDaysHint", RETENTION_DAYS)} error={err(fields.activityRetentionDays)} className="mt-1 max-w-xs">
            <Input
              type="number"
              inputMode="numeric"
              min={RETENTION_DAYS.min}
              max={RETENTION_DAYS.max}
              name={fields.activityRetentionDays.name}
              defaultValue={s?.activityRetentionDays ?? ""}
              disabled={kept}
            />
          </Field>
        </fieldset>

        <fieldset className="grid content-start gap-2 disabled:opacity-60" disabled={kept} aria-describedby={actionError ? `${id}-action-error` : undefined}>
          <legend className="mb-1 text-sm font-medium">{t("activityRetentionAction")}</legend>
          {RETENTION_ACTIONS.map((a) => (
            <div key={a} className="grid gap-0.5">
              <label className="flex items-center gap-2 text-sm">
                <input
                  type="radio"
                  name={fields.activityRetentionAction.name}
                  value={a}
                  defaultChecked={(s?.activityRetentionAction ?? "delete") === a}
                  aria-describedby={`${id}-${a}-hint`}
                />
                {t(`retentionAction.${a}`)}
              </label>
              <p id={`${id}-${a}-hint`} className="pl-6 text-xs text-muted-foreground">
                {t(`retentionAction.${a}Hint`)}
              </p>
            </div>
          ))}
          {actionError && (
            <p id={`${id}-action-error`} className="text-xs font-medium text-destructive">
              {actionError}
            </p>
          )}
        </fieldset>
      </CardContent>
    </Card>
  );
}
