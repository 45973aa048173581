import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useNavigation } from "@remix-run/react";
import { useEffect, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { NativeSelect } from "~/components/ui/native-select";
import { PageHeader } from "~/components/ui/page-header";
import { getFixedT, getLanguage } from "~/i18n/i18next.server";
import { translateMessage } from "~/i18n/messages";
import { issuesOf } from "~/schemas/companies";
import { companyRequestSchema, RENEWAL_TERMS } from "~/schemas/company-requests";
import { createCompanyRequest } from "~/services/company-requests.server";
import { requireModule } from "~/utils/auth-guards.server";
import { getDb, nowMs } from "~/utils/db.server";
import { ServiceError } from "~/utils/errors.server";
import { canUseVarPanel } from "~/utils/permissions";
import { redirectWithToast } from "~/utils/toast.server";

export const meta: MetaFunction = () => [{ title: "New Company Request" }];

type Failure = { message: string; errors: Record<string, string[]> };

export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireModule(request, context, "var_panel", "add");
  if (!canUseVarPanel(auth.permissions, auth.company.type)) throw new Response("Forbidden", { status: 403 });
  return null;
}

export async function action({ request, context }: ActionFunctionArgs) {
  const auth = await requireModule(request, context, "var_panel", "add");
  const form = Object.fromEntries(await request.formData());
  try {
    const r = await createCompanyRequest(getDb(context), auth, { ...form, companyType: "ec" }, nowMs());
    const t = await getFixedT(await getLanguage(request), "requests");
    // Spec §4: a successful company request goes to /varPanel.
    return redirectWithToast("/varPanel", { type: "success", message: translateMessage(t, r.message, "requests") }, context.cloudflare.env);
  } catch (e) {
    if (e instanceof ServiceError && e.status !== 403) return { message: e.message, errors: e.details.fieldErrors ?? {} } satisfies Failure;
    throw e;
  }
}

const FIELDS = ["companyName", "POCFirstName", "POCLastName", "POCEmail", "POCCountryCode", "POCPhoneNumber"] as const;
const maskPhone = (v: string) => {
  const d = v.replace(/\D/g, "");
  return [d.slice(0, 3), d.slice(3, 6), d.slice(6)].filter(Boolean).join("-");
};

export default function NewCompanyRequestPage() {
  const result = useActionData<Failure>();
  const { t } = useTranslation("requests");
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
  const [errors, setErrors] = useState<Record<string, string[]>>(result?.errors ?? {});
  useEffect(() => setErrors(result?.errors ?? {}), [result]);
  const set = (k: string, v: string) => {
    setValues((x) => ({ ...x, [k]: v }));
    setErrors(({ [k]: _, ...rest }) => rest);
  };
  const error = (k: string) => errors[k]?.map((m) => translateMessage(t, m, "requests"));
  const onSubmit = (event: FormEvent) => {
    const r = companyRequestSchema.safeParse(values);
    if (r.success) return;
    event.preventDefault();
    setErrors(issuesOf(r.error).fieldErrors);
  };
  return (
    <div className="grid gap-6">
      <PageHeader
        title={t("newTitle")}
        actions={
          <Button asChild variant="outline">
            <Link to="/varPanel">{t("backToVarPanel")}</Link>
          </Button>
        }
      />
      <Form method="post" onSubmit={onSubmit} noValidate className="grid max-w-3xl gap-4 sm:grid-cols-2">
        {result?.message && !Object.keys(result.errors).length && (
          <Alert variant="destructive" className="sm:col-span-2">
            <AlertDescription>{translateMessage(t, result.message, "requests")}</AlertDescription>
          </Alert>
        )}
        <Field label={t("companyName")} error={error("companyName")} required>
          <Input id="req-companyName" name="companyName" value={values.companyName} maxLength={200} onChange={(e) => set("companyName", e.target.value)} />
        </Field>
        <Field label={t("renewalTerm")} error={error("renewalTerm")} required>
          <NativeSelect id="req-renewalTerm" name="renewalTerm" value={values.renewalTerm} onChange={(e) => set("renewalTerm", e.target.value)}>
            <option value="">{t("choose")}</option>
            {RENEWAL_TERMS.map((n) => (
              <option key={n} value={n}>
                {t("term", { n })}
              </option>
            ))}
          </NativeSelect>
        </Field>
        {FIELDS.slice(1).map((k) => (
          <Field key={k} label={t(k)} error={error(k)} required>
            <Input
              id={`req-${k}`}
              name={k}
              value={k === "POCPhoneNumber" ? maskPhone(values[k]) : values[k]}
              type={k === "POCEmail" ? "email" : k === "POCPhoneNumber" || k === "POCCountryCode" ? "tel" : "text"}
              maxLength={k === "POCCountryCode" ? 3 : 200}
              placeholder={k === "POCPhoneNumber" ? "999-999-9999" : undefined}
              autoComplete="off"
              onChange={(e) => set(k, e.target.value)}
            />
          </Field>
        ))}
        <div className="sm:col-span-2">
          <Button type="submit" disabled={saving}>
            {t("submit")}
          </Button>
        </div>
      </Form>
    </div>
  );
}
