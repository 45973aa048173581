import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { SupportGrantForm } from "~/components/support-access/support-grant-form";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { PageHeader } from "~/components/ui/page-header";
import { supportGrantSchema, SUPPORT_MSG } from "~/schemas/support-access";
import { grantSupportAccess, supportGrantees } from "~/services/support-access.server";
import { requireModule } from "~/utils/auth-guards.server";
import { getDb, nowMs } from "~/utils/db.server";
import { formAction } from "~/utils/form-action.server";
import { redirectWithMessage } from "~/utils/toast.server";

export const meta: MetaFunction = () => [{ title: "Grant Support Access" }];

const MODULE = "company_settings";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireModule(request, context, MODULE, "add");
  if (auth.support) throw new Response("Forbidden", { status: 403 });
  return { grantees: await supportGrantees(getDb(context), auth) };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const auth = await requireModule(request, context, MODULE, "add");
  return formAction(request, supportGrantSchema, async (value) => {
    await grantSupportAccess(getDb(context), auth, value, nowMs());
    return redirectWithMessage({ request, context }, { to: "/supportAccess", ns: "supportAccess", message: SUPPORT_MSG.granted });
  });
}

export default function AddSupportAccessPage() {
  const { grantees } = useLoaderData<typeof loader>();
  const { t } = useTranslation("supportAccess");
  return (
    <div className="grid gap-6">
      <PageHeader title={t("addTitle")} description={t("addDescription")} back={{ to: "/supportAccess", label: t("backToList") }} />
      {grantees.length === 0 ? (
        <Alert>
          <AlertDescription>{t(SUPPORT_MSG.noParent)}</AlertDescription>
        </Alert>
      ) : (
        <SupportGrantForm grantees={grantees} />
      )}
    </div>
  );
}
