import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { LockdownPlanForm } from "~/components/lockdown/plan-form";
import { PageHeader } from "~/components/ui/page-header";
import { lockdownPlanFormAction, lockdownPlanOptions } from "~/routes/lockdown-plan-form.server";
import { requireModule } from "~/utils/auth-guards.server";

export const meta: MetaFunction = () => [{ title: "Add lockdown plan" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireModule(request, context, "company_settings", "add");
  return lockdownPlanOptions(context, auth);
}

export async function action({ request, context }: ActionFunctionArgs) {
  const auth = await requireModule(request, context, "company_settings", "add");
  return lockdownPlanFormAction(request, context, auth, "add");
}

export default function AddLockdownPlan() {
  const options = useLoaderData<typeof loader>();
  const { t } = useTranslation("lockdown");
  return (
    <div className="grid gap-6">
      <PageHeader title={t("addTitle")} back={{ to: "/lockdown", label: t("backToList") }} />
      <LockdownPlanForm
        options={options}
        submitLabel={t("add")}
        values={{
          name: "",
          mode: "lockdown",
          scope: "company",
          scopeIds: [],
          exemptUserIds: [],
          exemptRoleIds: [],
          panicDoorIds: [],
          phoneTriggerUserIds: [],
          phoneTriggerRoleIds: [],
          durationMinutes: null,
        }}
      />
    </div>
  );
}
