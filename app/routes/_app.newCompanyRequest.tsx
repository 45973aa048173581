import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, useNavigation } from "@remix-run/react";
import { useState } from "react";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { CountryPicker } from "~/components/phone-field/country-picker";
import { PhoneInput } from "~/components/phone-field/phone-input";
import { pickerRegion } from "~/utils/phone";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { NativeSelect } from "~/components/ui/native-select";
import { PageHeader } from "~/components/ui/page-header";
import { companyRequestSchema, RENEWAL_TERMS } from "~/schemas/company-requests";
import { createCompanyRequest } from "~/services/company-requests.server";
import { requireModule } from "~/utils/auth-guards.server";
import { getDb, nowMs } from "~/utils/db.server";
import { canUseVarPanel } from "~/utils/permissions";
import { redirectWithMessage } from "~/utils/toast.server";
import { usePageForm } from "~/components/forms/use-page-form";
import { formAction } from "~/utils/form-action.server";

export const meta: MetaFunction = () => [{ title: "New Company Request" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireModule(request, context, "var_panel", "add");
  if (!canUseVarPanel(auth.permissions, auth.company.type)) throw new Response("Forbidden", { status: 403 });
  return null;
}

export async function action({ request, context }: ActionFunctionArgs) {
  const auth = await requireModule(request, context, "var_panel", "add");
  return formAction(request, companyRequestSchema, async (value) => {
    const r = await createCompanyRequest(getDb(context), auth, value, nowMs());
    // Spec §4: a successful company request goes to /varPanel.
    return redirectWithMessage({ request, context }, { to: "/varPanel", ns: "requests", message: r.message });
  });
}

const FIELDS = ["companyName", "POCFirstName", "POCLastName", "POCEmail"] as const;

export default function NewCompanyRequestPage() {
  const { fields, err, formError, formProps, t } = usePageForm({ id: "company-request", schema: companyRequestSchema, ns: "requests" });
  const saving = useNavigation().state === "submitting";
  const [values, setValues] = useState<Record<string, string>>({
    companyName: "",
    renewalTerm: "",
    POCFirstName: "",
    POCLastName: "",
    POCEmail: "",
    POCCountryCode: "001",
    POCPhoneNumber: "",
  });
  const set = (k: string, v: string) => setValues((x) => ({ ...x, [k]: v }));
  return (
    <div className="grid gap-6">
      <PageHeader title={t("newTitle")} back={{ to: "/varPanel", label: t("backToVarPanel") }} />
      <Form method="post" {...formProps} className="grid max-w-3xl gap-4 sm:grid-cols-2">
        {formError && (
          <Alert variant="destructive" className="sm:col-span-2">
            <AlertDescription>{formError}</AlertDescription>
          </Alert>
        )}
        <Field label={t("companyName")} error={err(fields.companyName)} required>
          <Input id="req-companyName" name="companyName" value={values.companyName} maxLength={200} onChange={(e) => set("companyName", e.target.value)} />
        </Field>
        <Field label={t("renewalTerm")} error={err(fields.renewalTerm)} required>
          <NativeSelect
            id="req-renewalTerm"
            name="renewalTerm"
            value={values.renewalTerm}
            onChange={(e) => set("renewalTerm", e.target.value)}
            options={RENEWAL_TERMS.map((n) => ({ value: n, label: t("term", { n }) }))}
          >
            <option value="">{t("choose")}</option>
          </NativeSelect>
        </Field>
        {FIELDS.slice(1).map((k) => (
          <Field key={k} label={t(k)} error={err(fields[k])} required>
            <Input
              id={`req-${k}`}
              name={k}
              value={values[k]}
              type={k === "POCEmail" ? "email" : "text"}
              maxLength={200}
              autoComplete="off"
              onChange={(e) => set(k, e.target.value)}
            />
          </Field>
        ))}
        <Field label={t("POCCountryCode")} error={err(fields.POCCountryCode)} required>
          <CountryPicker id="req-POCCountryCode" name="POCCountryCode" region={pickerRegion(values.POCCountryCode)} onChange={(r) => set("POCCountryCode", r)} />
        </Field>
        <Field label={t("POCPhoneNumber")} error={err(fields.POCPhoneNumber)} required>
          <PhoneInput
            id="req-POCPhoneNumber"
            name="POCPhoneNumber"
            region={pickerRegion(values.POCCountryCode)}
            value={values.POCPhoneNumber}
            onChange={(v) => set("POCPhoneNumber", v)}
          />
        </Field>
        <div className="sm:col-span-2">
          <Button type="submit" disabled={saving}>
            {t("submit")}
          </Button>
        </div>
      </Form>
    </div>
  );
}
