import { Form, useNavigation } from "@remix-run/react";
import { FormAlert } from "~/components/auth/form-parts";
import { usePageForm } from "~/components/forms/use-page-form";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { NativeSelect } from "~/components/ui/native-select";
import { Textarea } from "~/components/ui/textarea";
import { SUPPORT_HOURS, SUPPORT_REASON_MAX, supportGrantSchema } from "~/schemas/support-access";

/** A grant: who gets access (the company's reseller or the platform; optionally only staff members it names), for how long, and why. */
export function SupportGrantForm({ grantees }: { grantees: { id: number; name: string; code: string }[] }) {
  const { fields, err, formError, formProps, t } = usePageForm({ id: "support-grant", schema: supportGrantSchema, ns: "supportAccess" });
  const saving = useNavigation().state === "submitting";
  return (
    <Form method="post" {...formProps} className="grid max-w-2xl gap-6">
      <FormAlert message={formError} />
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label={t("grantee")} error={err(fields.granteeCompanyId)} required>
          <NativeSelect
            id="support-grantee"
            name={fields.granteeCompanyId.name}
            defaultValue={String(grantees[0]?.id ?? "")}
            options={grantees.map((g) => ({ value: String(g.id), label: `${g.name} (${g.code})` }))}
          />
        </Field>
        <Field label={t("duration")} error={err(fields.hours)} required>
          <NativeSelect id="support-hours" name={fields.hours.name} defaultValue="4" options={SUPPORT_HOURS.map((h) => ({ value: String(h), label: t("hours", { count: h }) }))} />
        </Field>
      </div>
      <Field label={t("reason")} error={err(fields.reason)} required hint={t("reasonHint")}>
        <Textarea id="support-reason" name={fields.reason.name} maxLength={SUPPORT_REASON_MAX} rows={3} />
      </Field>
      <Field label={t("staff")} error={err(fields.staffEmails)} hint={t("staffHint")}>
        <Input id="support-staff" name={fields.staffEmails.name} type="text" inputMode="email" autoComplete="off" placeholder={t("staffPlaceholder")} />
      </Field>
      <div>
        <Button type="submit" disabled={saving}>
          {t("grant")}
        </Button>
      </div>
    </Form>
  );
}
