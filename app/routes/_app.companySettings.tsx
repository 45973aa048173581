import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { SettingsForm } from "~/components/settings/settings-form";
import { LinkButton } from "~/components/ui/link-button";
import { PageHeader } from "~/components/ui/page-header";
import { companySettingsSchema, SETTINGS_MSG } from "~/schemas/settings";
import { timeZoneOptions } from "~/services/time-zones.server";
import { getCompanySettings, modifyCompanySettings } from "~/services/settings.server";
import { requireModule } from "~/utils/auth-guards.server";
import { getDb, nowMs } from "~/utils/db.server";
import { can } from "~/utils/permissions";
import { formAction } from "~/utils/form-action.server";
import { redirectWithMessage } from "~/utils/toast.server";

export const meta: MetaFunction = () => [{ title: "Company settings" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireModule(request, context, "company_settings");
  const db = getDb(context);
  const [settings, zones] = await Promise.all([getCompanySettings(db, auth), timeZoneOptions(db)]);
  return {
    settings,
    zones,
    company: auth.company.name,
    canModify: can(auth.permissions, "company_settings", "modify"),
    // Directory sync (SCIM) is a super admin's (decision 0080).
    directorySync: auth.user.isSuperAdmin && can(auth.permissions, "users", "modify"),
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const auth = await requireModule(request, context, "company_settings", "modify");
  return formAction(request, companySettingsSchema, async (value) => {
    await modifyCompanySettings(getDb(context), auth, value, nowMs(), context.core);
    return redirectWithMessage({ request, context }, { to: "/companySettings", ns: "settings", message: SETTINGS_MSG.updated });
  });
}

export default function CompanySettings() {
  const { settings, zones, company, canModify, directorySync } = useLoaderData<typeof loader>();
  const { t } = useTranslation("settings");
  return (
    <div className="max-w-4xl">
      <PageHeader title={t("title")} description={t("description", { company })} back={{ to: "/companyMailerSetting", label: t("mailerConfig") }} />
      {/* The settings' own pages: a row of their own under the header, which wraps on any screen (in the header's
          actions they squeezed the title at 1440 px). */}
      <nav aria-label={t("morePages")} className="mb-6 flex flex-wrap gap-2">
        <LinkButton variant="outline" to="/lockdown">
          {t("lockdown")}
        </LinkButton>
        <LinkButton variant="outline" to="/holidayCalendars">
          {t("holidayCalendars")}
        </LinkButton>
        <LinkButton variant="outline" to="/customFields">
          {t("customFields")}
        </LinkButton>
        <LinkButton variant="outline" to="/visitorPassRules">
          {t("visitorPassRules")}
        </LinkButton>
        <LinkButton variant="outline" to="/mfaPolicy">
          {t("mfaPolicy")}
        </LinkButton>
        <LinkButton variant="outline" to="/apiKeys">
          {t("apiKeys")}
        </LinkButton>
        <LinkButton variant="outline" to="/webhooks">
          {t("webhooks")}
        </LinkButton>
        <LinkButton variant="outline" to="/supportAccess">
          {t("supportAccess")}
        </LinkButton>
        {directorySync && (
          <LinkButton variant="outline" to="/directorySync">
            {t("directorySync")}
          </LinkButton>
        )}
        {directorySync && (
          <LinkButton variant="outline" to="/singleSignOn">
            {t("singleSignOn")}
          </LinkButton>
        )}
      </nav>
      <SettingsForm key={settings?.updatedAt ?? "new"} settings={settings} zones={zones} canModify={canModify} />
    </div>
  );
}
