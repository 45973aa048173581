import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { CustomFieldForm } from "~/components/custom-fields/field-form";
import { PageHeader } from "~/components/ui/page-header";
import { customFieldSchema } from "~/schemas/custom-fields";
import { getCustomField, modifyCustomField } from "~/services/custom-fields.server";
import { requireModule } from "~/utils/auth-guards.server";
import { getDb, nowMs } from "~/utils/db.server";
import { formAction } from "~/utils/form-action.server";
import { idFromUrl, loadRecord } from "~/utils/record-from-url.server";
import { redirectWithMessage } from "~/utils/toast.server";

export const meta: MetaFunction = () => [{ title: "Custom field" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireModule(request, context, "company_settings", "modify");
  return loadRecord(request, { list: "/customFields" }, async (id) => ({ field: await getCustomField(getDb(context), auth, id) }));
}

export async function action({ request, context }: ActionFunctionArgs) {
  const auth = await requireModule(request, context, "company_settings", "modify");
  return formAction(request, customFieldSchema, async (value) => {
    const r = await modifyCustomField(getDb(context), auth, idFromUrl(request) ?? 0, value, nowMs());
    return redirectWithMessage({ request, context }, { to: "/customFields", ns: "customFields", message: r.message });
  });
}

export default function ModifyCustomFieldPage() {
  const { field } = useLoaderData<typeof loader>();
  const { t } = useTranslation("customFields");
  return (
    <div className="grid gap-6">
      <PageHeader title={`${t("modifyTitle")}: ${field.label}`} back={{ to: "/customFields", label: t("backToList") }} />
      <CustomFieldForm key={field.updatedAt} initial={field} submitLabel={t("save")} />
    </div>
  );
}
