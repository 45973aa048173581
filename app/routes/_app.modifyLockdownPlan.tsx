import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { LockdownPlanForm } from "~/components/lockdown/plan-form";
import { PageHeader } from "~/components/ui/page-header";
import { lockdownPlanFormAction, lockdownPlanOptions } from "~/routes/lockdown-plan-form.server";
import { getPlan } from "~/services/lockdown.server";
import { requireModule } from "~/utils/auth-guards.server";
import { getDb } from "~/utils/db.server";
import { loadRecord } from "~/utils/record-from-url.server";

export const meta: MetaFunction = () => [{ title: "Modify lockdown plan" }];

/** Without an id, or with one that is not the company's, back to the list. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireModule(request, context, "company_settings", "modify");
  return loadRecord(request, { list: "/lockdown" }, async (id) => {
    const [plan, options] = await Promise.all([getPlan(getDb(context), auth, id), lockdownPlanOptions(context, auth)]);
    const { createdAt: _c, updatedAt, deletedAt: _d, companyId: _co, ...values } = plan;
    return { values, updatedAt, options };
  });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const auth = await requireModule(request, context, "company_settings", "modify");
  return lockdownPlanFormAction(request, context, auth, "modify");
}

export default function ModifyLockdownPlan() {
  const { values, updatedAt, options } = useLoaderData<typeof loader>();
  const { t } = useTranslation("lockdown");
  return (
    <div className="grid gap-6">
      <PageHeader title={t("modifyTitle", { name: values.name })} back={{ to: "/lockdown", label: t("backToList") }} />
      <LockdownPlanForm key={`${values.id}-${updatedAt}`} options={options} submitLabel={t("save")} values={values} />
    </div>
  );
}
