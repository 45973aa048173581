import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useTranslation } from "react-i18next";
import { CustomFieldForm, EMPTY_FIELD } from "~/components/custom-fields/field-form";
import { PageHeader } from "~/components/ui/page-header";
import { customFieldSchema } from "~/schemas/custom-fields";
import { addCustomField } from "~/services/custom-fields.server";
import { requireModule } from "~/utils/auth-guards.server";
import { getDb, nowMs } from "~/utils/db.server";
import { formAction } from "~/utils/form-action.server";
import { redirectWithMessage } from "~/utils/toast.server";

export const meta: MetaFunction = () => [{ title: "Add custom field" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireModule(request, context, "company_settings", "add");
  return null;
}

export async function action({ request, context }: ActionFunctionArgs) {
  const auth = await requireModule(request, context, "company_settings", "add");
  return formAction(request, customFieldSchema, async (value) => {
    const r = await addCustomField(getDb(context), auth, value, nowMs());
    return redirectWithMessage({ request, context }, { to: "/customFields", ns: "customFields", message: r.message });
  });
}

export default function AddCustomFieldPage() {
  const { t } = useTranslation("customFields");
  return (
    <div className="grid gap-6">
      <PageHeader title={t("addTitle")} back={{ to: "/customFields", label: t("backToList") }} />
      <CustomFieldForm initial={EMPTY_FIELD} submitLabel={t("create")} />
    </div>
  );
}
