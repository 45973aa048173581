import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { PageHeader } from "~/components/ui/page-header";
import { PassRulesForm } from "~/components/visitor-passes/rules-form";
import { passRulesSchema } from "~/schemas/visitor-passes";
import { passChoices, savePassRules } from "~/services/visitor-passes.server";
import { mayHost } from "~/utils/visitor-pass-rules.server";
import { requireModule } from "~/utils/auth-guards.server";
import { getDb, nowMs } from "~/utils/db.server";
import { formAction } from "~/utils/form-action.server";
import { can } from "~/utils/permissions";
import { redirectWithMessage } from "~/utils/toast.server";

export const meta: MetaFunction = () => [{ title: "Visitor rules" }];

/** The company's visitor rules (decision 0096), kept with its settings: seen with the module, saved with its modify right. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireModule(request, context, "company_settings");
  const { rules, roles, groups } = await passChoices(getDb(context), auth, { bounded: false });
  // Back to the passes for whoever sees them, else to the company settings that link here.
  const back = can(auth.permissions, "users") || mayHost(auth, rules) ? "/visitorPasses" : "/companySettings";
  return { rules, roles, groups, back, canModify: can(auth.permissions, "company_settings", "modify") };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const auth = await requireModule(request, context, "company_settings", "modify");
  return formAction(request, passRulesSchema, async (value) => {
    const r = await savePassRules(getDb(context), auth, value, nowMs());
    return redirectWithMessage({ request, context }, { ns: "visitorPasses", message: r.message });
  });
}

export default function VisitorPassRulesPage() {
  const { rules, roles, groups, back, canModify } = useLoaderData<typeof loader>();
  const { t } = useTranslation("visitorPasses");
  return (
    <div className="grid gap-6">
      <PageHeader
        title={t("rulesTitle")}
        description={t("rulesDescription")}
        back={back === "/visitorPasses" ? { to: back, label: t("backToList") } : { to: back, label: t("backToSettings") }}
      />
      <PassRulesForm key={JSON.stringify(rules)} values={rules} roles={roles} groups={groups} readOnly={!canModify} />
    </div>
  );
}
