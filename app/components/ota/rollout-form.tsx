import { Form, useNavigation } from "@remix-run/react";
import { usePageForm } from "~/components/forms/use-page-form";
import { FormAlert } from "~/components/auth/form-parts";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { NativeSelect } from "~/components/ui/native-select";
import { ROLLOUT_DEFAULTS, startRolloutSchema } from "~/schemas/firmware-rollouts";

/** A rollout plan: the release, its waves and canary boards, and when it opens the next wave or stops itself. */
export function RolloutForm({ releases, releaseId }: { releases: { id: number; version: string; deviceType: string }[]; releaseId?: number }) {
  const { fields, err, formError, formProps, t } = usePageForm({ id: "rollout", schema: startRolloutSchema, ns: "ota" });
  const saving = useNavigation().state === "submitting";
  return (
    <Form method="post" {...formProps} className="grid max-w-3xl gap-6">
      <FormAlert message={formError} />
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label={t("release")} error={err(fields.releaseId)} required>
          <NativeSelect
            id="rollout-release"
            name={fields.releaseId.name}
            defaultValue={String(releaseId ?? releases[0]?.id ?? "")}
            options={releases.map((r) => ({ value: String(r.id), label: t("releaseOption", { version: r.version, type: r.deviceType }) }))}
          />
        </Field>
        <Field label={t("waves")} error={err(fields.waves)} required hint={t("wavesHint")}>
          <Input id="rollout-waves" name={fields.waves.name} defaultValue={ROLLOUT_DEFAULTS.waves} maxLength={60} />
        </Field>
        <Field label={t("canary")} error={err(fields.canary)} hint={t("canaryHint")}>
          <Input id="rollout-canary" name={fields.canary.name} maxLength={2000} inputMode="numeric" />
        </Field>
        <Field label={t("soak")} error={err(fields.soakMinutes)} required>
          <Input id="rollout-soak" name={fields.soakMinutes.name} type="number" min={0} max={10080} defaultValue={ROLLOUT_DEFAULTS.soakMinutes} />
        </Field>
        <Field label={t("online")} error={err(fields.onlineMinutes)} required hint={t("onlineHint")}>
          <Input id="rollout-online" name={fields.onlineMinutes.name} type="number" min={1} max={1440} defaultValue={ROLLOUT_DEFAULTS.onlineMinutes} />
        </Field>
      </div>
      <fieldset className="grid gap-4 sm:grid-cols-2">
        <legend className="mb-2 text-sm text-muted-foreground">{t("thresholdHint")}</legend>
        <Field label={t("failPercent")} error={err(fields.failPercent)}>
          <Input id="rollout-fail-percent" name={fields.failPercent.name} type="number" min={1} max={100} defaultValue={ROLLOUT_DEFAULTS.failPercent} />
        </Field>
        <Field label={t("failCount")} error={err(fields.failCount)}>
          <Input id="rollout-fail-count" name={fields.failCount.name} type="number" min={1} max={100000} defaultValue={ROLLOUT_DEFAULTS.failCount} />
        </Field>
      </fieldset>
      <div>
        <Button type="submit" disabled={saving}>
          {t("startRollout")}
        </Button>
      </div>
    </Form>
  );
}
