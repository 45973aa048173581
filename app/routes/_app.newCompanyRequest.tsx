import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, useNavigation } from "@remix-run/react";
import { useState } from "react";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { PhoneFields, TextFields } from "~/components/forms/bound-fields";
import { pickerRegion } from "~/utils/phone";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { NativeSelect } from "~/components/ui/native-select";
import { PageHeader } from "~/components/ui/page-header";
import { companyRequestSchema, RENEWAL_TERMS } from "~/schemas/company-requests";
import { createCompanyRequest } from "~/services/company-requests.server";
import { requireModule } from "~/utils/auth-guards.server";
import { getDb, nowMs } from "~/utils/db.server";
import { canRequestCompany } from "~/utils/permissions";
import { redirectWithMessage } from "~/utils/toast.server";
import { usePageForm } from "~/components/forms/use-page-form";
import { formAction } from "~/utils/form-action.server";

export const meta: MetaFunction = () => [{ title: "New Company Request" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireModule(request, context, "var_panel", "add");
  // Root adds companies itself (decision 0056); the action's service refuses it with its reason too.
  if (!canRequestCompany(auth.permissions, auth.company.type)) throw new Response("Forbidden", { status: 403 });
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

const POC_TEXT = ["POCFirstName", "POCLastName", "POCEmail"] as const;

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
  const bound = { values, set, label: (k: string) => t(k), error: (k: Extract<keyof typeof fields, string>) => err(fields[k]) };
  return (
    <div className="grid gap-6">
      <PageHeader title={t("newTitle")} back={{ to: "/varPanel", label: t("backToVarPanel") }} />
      <Form method="post" {...formProps} className="grid max-w-3xl gap-4 sm:grid-cols-2">
        {formError && (
          <Alert variant="destructive" className="sm:col-span-2">
            <AlertDescription>{formError}</AlertDescription>
          </Alert>
        )}
        <TextFields idPrefix="req" keys={["companyName"]} {...bound} />
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
        <TextFields idPrefix="req" keys={POC_TEXT} email="POCEmail" {...bound} />
        <PhoneFields idPrefix="req" country="POCCountryCode" phone="POCPhoneNumber" region={pickerRegion(values.POCCountryCode)} {...bound} />
        <div className="sm:col-span-2">
          <Button type="submit" disabled={saving}>
            {t("submit")}
          </Button>
        </div>
      </Form>
    </div>
  );
}
