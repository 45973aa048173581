import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, useLoaderData, useNavigation } from "@remix-run/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { usePageForm } from "~/components/forms/use-page-form";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { PageHeader } from "~/components/ui/page-header";
import { MFA_POLICIES, mfaPolicySchema } from "~/schemas/mfa-policy";
import { getMfaPolicy, setMfaPolicy } from "~/services/mfa-policy.server";
import { requireModule } from "~/utils/auth-guards.server";
import { getDb, nowMs, schema } from "~/utils/db.server";
import { formAction } from "~/utils/form-action.server";
import { can } from "~/utils/permissions";
import { redirectWithMessage } from "~/utils/toast.server";
import { eq } from "drizzle-orm";

export const meta: MetaFunction = () => [{ title: "Sign-in security" }];

/** The page's form: the policy, and the chosen roles' ids (checkboxes) for 'roles'. */
const policyFormSchema = mfaPolicySchema;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireModule(request, context, "company_settings");
  const db = getDb(context);
  const roles = await db
    .select({ id: schema.roles.id, title: schema.roles.title })
    .from(schema.roles)
    .where(eq(schema.roles.companyId, auth.company.id))
    .orderBy(schema.roles.title);
  return {
    ...(await getMfaPolicy(db, auth)),
    roles,
    // Only a super admin with the settings modify right changes it (the service checks again).
    canModify: auth.user.isSuperAdmin && can(auth.permissions, "company_settings", "modify"),
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const auth = await requireModule(request, context, "company_settings", "modify");
  return formAction(request, policyFormSchema, async (value) => {
    const r = await setMfaPolicy(getDb(context), auth, value, nowMs());
    return redirectWithMessage({ request, context }, { ns: "passkeys", message: r.message });
  });
}

export default function MfaPolicyPage() {
  const { policy, roleIds, roles, canModify } = useLoaderData<typeof loader>();
  const { t } = useTranslation("passkeys");
  const navigation = useNavigation();
  const [chosen, setChosen] = useState<string>(policy);
  const { err, fields, formError, formProps } = usePageForm({ id: "mfa-policy", schema: policyFormSchema, ns: "passkeys", shouldValidate: "onSubmit" });
  return (
    <div className="mx-auto grid max-w-2xl gap-6">
      <PageHeader title={t("policyTitle")} back={{ to: "/companySettings", label: t("companySettings") }} />
      <p className="text-sm text-muted-foreground">{t("policyIntro")}</p>
      <Card>
        <CardHeader>
          <CardTitle>{t("policyWho")}</CardTitle>
        </CardHeader>
        <CardContent>
          <Form method="post" {...formProps} className="grid gap-4">
            {formError && <p className="text-sm font-medium text-destructive">{formError}</p>}
            <fieldset className="grid gap-3" disabled={!canModify}>
              <legend className="sr-only">{t("policyWho")}</legend>
              {MFA_POLICIES.map((p) => (
                <label key={p} className="flex items-start gap-2 text-sm">
                  <input type="radio" name="policy" value={p} checked={chosen === p} onChange={() => setChosen(p)} className="mt-1" />
                  <span>
                    <span className="font-medium">{t(`policy.${p}`)}</span>
                    <span className="block text-muted-foreground">{t(`policyHelp.${p}`)}</span>
                  </span>
                </label>
              ))}
              {chosen === "roles" && (
                <div className="ml-6 grid gap-2 sm:grid-cols-2" data-testid="mfa-policy-roles">
                  {roles.map((r) => (
                    <label key={r.id} className="flex items-center gap-2 text-sm">
                      <input type="checkbox" name="roleIds" value={r.id} defaultChecked={roleIds.includes(r.id)} />
                      <span className="break-words">{r.title}</span>
                    </label>
                  ))}
                  {err(fields.roleIds) && <p className="text-sm font-medium text-destructive sm:col-span-2">{err(fields.roleIds)}</p>}
                </div>
              )}
            </fieldset>
            {canModify ? (
              <Button type="submit" className="w-fit" loading={navigation.state === "submitting"}>
                {t("savePolicy")}
              </Button>
            ) : (
              <p className="text-sm text-muted-foreground">{t("policyReadOnly")}</p>
            )}
          </Form>
        </CardContent>
      </Card>
    </div>
  );
}
