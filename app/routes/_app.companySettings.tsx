import { parseWithZod } from "@conform-to/zod";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { SettingsForm, type SettingsActionData } from "~/components/settings/settings-form";
import { Button } from "~/components/ui/button";
import { PageHeader } from "~/components/ui/page-header";
import { getFixedT, getLanguage } from "~/i18n/i18next.server";
import { translateMessage } from "~/i18n/messages";
import { companySettingsSchema, SETTINGS_MESSAGES } from "~/schemas/settings";
import { timeZoneOptions } from "~/services/time-zones.server";
import { getCompanySettings, modifyCompanySettings } from "~/services/settings.server";
import { requireModule } from "~/utils/auth-guards.server";
import { getDb, nowMs } from "~/utils/db.server";
import { ServiceError } from "~/utils/errors.server";
import { can } from "~/utils/permissions";
import { redirectWithToast } from "~/utils/toast.server";

export const meta: MetaFunction = () => [{ title: "Company settings" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireModule(request, context, "company_settings");
  const db = getDb(context);
  const [settings, zones] = await Promise.all([getCompanySettings(db, auth), timeZoneOptions(db)]);
  return { settings, zones, company: auth.company.name, canModify: can(auth.permissions, "company_settings", "modify") };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const auth = await requireModule(request, context, "company_settings", "modify");
  const submission = parseWithZod(await request.formData(), { schema: companySettingsSchema });
  if (submission.status !== "success") return data({ result: submission.reply() } satisfies SettingsActionData, { status: 400 });
  const t = await getFixedT(await getLanguage(request), "settings");
  try {
    await modifyCompanySettings(getDb(context), auth, submission.value, nowMs(), context.core);
    return redirectWithToast("/companySettings", { type: "success", message: translateMessage(t, SETTINGS_MESSAGES.updated, "settings") }, context.cloudflare.env);
  } catch (e) {
    if (!(e instanceof ServiceError)) throw e;
    return data({ result: submission.reply({ fieldErrors: e.details.fieldErrors ?? { "": [e.message] } }) } satisfies SettingsActionData, { status: e.status });
  }
}

export default function CompanySettings() {
  const { settings, zones, company, canModify } = useLoaderData<typeof loader>();
  const { t } = useTranslation("settings");
  return (
    <div className="max-w-4xl">
      <PageHeader
        title={t("title")}
        description={t("description", { company })}
        actions={
          <Button asChild variant="outline">
            <Link to="/companyMailerSetting">{t("mailerConfig")}</Link>
          </Button>
        }
      />
      <SettingsForm key={settings?.updatedAt ?? "new"} settings={settings} zones={zones} canModify={canModify} />
    </div>
  );
}
