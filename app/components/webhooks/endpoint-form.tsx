import { Form, useNavigation } from "@remix-run/react";
import { useState } from "react";
import { usePageForm } from "~/components/forms/use-page-form";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Checkbox } from "~/components/ui/checkbox";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { Switch } from "~/components/ui/switch";
import { WEBHOOK_EVENT_GROUPS, WEBHOOK_EVENT_TYPES, webhookEndpointSchema, webhookEventGroup, type WebhookEventType } from "~/schemas/webhooks";

export type WebhookEndpointValues = { url: string; description: string; eventTypes: WebhookEventType[]; enabled: boolean };

type Tick = boolean | "indeterminate";
const tickOf = (chosen: number, of: number): Tick => (chosen === 0 ? false : chosen === of ? true : "indeterminate");

/**
 * Add or modify a webhook endpoint: URL, description, event types (grouped, each group and all of them
 * at once) and whether it is enabled. The switch posts `enabled=true|false` (an absent field reads as on).
 */
export function WebhookEndpointForm({ initial, submitLabel }: { initial: WebhookEndpointValues; submitLabel: string }) {
  const { fields, err, formError, formProps, t } = usePageForm({ id: "webhook-endpoint", schema: webhookEndpointSchema, ns: "webhooks" });
  const saving = useNavigation().state === "submitting";
  const [chosen, setChosen] = useState<WebhookEventType[]>(initial.eventTypes);
  const [enabled, setEnabled] = useState(initial.enabled);
  const set = (types: readonly WebhookEventType[], on: boolean) => setChosen((v) => (on ? [...new Set([...v, ...types])] : v.filter((x) => !types.includes(x))));
  const typesError = err(fields.eventTypes);
  return (
    <Form method="post" {...formProps} className="grid max-w-3xl gap-6">
      <input type="hidden" name="intent" value="save" />
      {formError && (
        <Alert variant="destructive">
          <AlertDescription>{formError}</AlertDescription>
        </Alert>
      )}
      <Field label={t("url")} hint={t("urlHint")} error={err(fields.url)} required>
        <Input id="webhook-url" name={fields.url.name} type="url" inputMode="url" defaultValue={initial.url} maxLength={500} autoComplete="off" placeholder="https://" />
      </Field>
      <Field label={t("descriptionField")} error={err(fields.description)}>
        <Input id="webhook-description" name={fields.description.name} defaultValue={initial.description} maxLength={200} autoComplete="off" />
      </Field>
      <fieldset className="grid gap-3 rounded-lg border p-4" aria-describedby={typesError ? "webhook-event-types-error" : undefined}>
        <legend className="px-1 text-sm font-semibold">{t("eventTypes")}</legend>
        <Field label={t("selectAll")} orientation="horizontal">
          <Checkbox id="webhook-types-all" checked={tickOf(chosen.length, WEBHOOK_EVENT_TYPES.length)} onCheckedChange={(c) => set(WEBHOOK_EVENT_TYPES, c === true)} />
        </Field>
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {WEBHOOK_EVENT_GROUPS.map((g) => {
            const types = WEBHOOK_EVENT_TYPES.filter((x) => webhookEventGroup(x) === g);
            return (
              <div key={g} role="group" aria-labelledby={`webhook-group-${g}`} className="grid content-start gap-2">
                <h3 id={`webhook-group-${g}`} className="text-sm font-medium">
                  {t(`group.${g}`)}
                </h3>
                {types.length > 1 && (
                  <Field label={t("selectGroup", { group: t(`group.${g}`) })} orientation="horizontal">
                    <Checkbox
                      id={`webhook-group-all-${g}`}
                      checked={tickOf(types.filter((x) => chosen.includes(x)).length, types.length)}
                      onCheckedChange={(c) => set(types, c === true)}
                    />
                  </Field>
                )}
                {types.map((type) => (
                  <Field key={type} label={t(`type.${type}`)} hint={type} orientation="horizontal">
                    <Checkbox id={`webhook-type-${type}`} checked={chosen.includes(type)} onCheckedChange={(c) => set([type], c === true)} />
                  </Field>
                ))}
              </div>
            );
          })}
        </div>
        {WEBHOOK_EVENT_TYPES.filter((x) => chosen.includes(x)).map((x) => (
          <input key={x} type="hidden" name={fields.eventTypes.name} value={x} />
        ))}
        {typesError && (
          <p id="webhook-event-types-error" className="text-xs font-medium text-destructive">
            {typesError}
          </p>
        )}
      </fieldset>
      <Field label={t("enabledField")} hint={t("enabledHint")} orientation="horizontal">
        <Switch id="webhook-enabled" checked={enabled} onCheckedChange={setEnabled} />
      </Field>
      <input type="hidden" name={fields.enabled.name} value={enabled ? "true" : "false"} />
      <div>
        <Button type="submit" disabled={saving}>
          {submitLabel}
        </Button>
      </div>
    </Form>
  );
}
