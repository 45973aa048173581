import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ScheduleForm } from "~/components/settings/schedule-form";
import { Button } from "~/components/ui/button";
import { PageHeader } from "~/components/ui/page-header";
import { scheduleOpenSchema, SETTINGS_MSG } from "~/schemas/settings";
import { getScheduleOpen, saveScheduleOpen } from "~/services/scheduled-open.server";
import { companyZone, requireModule } from "~/utils/auth-guards.server";
import { getDb, nowMs } from "~/utils/db.server";
import { formAction, type FormReply } from "~/utils/form-action.server";
import { inFormFieldNames } from "~/utils/form-field-names.server";
import { redirectWithMessage } from "~/utils/toast.server";
import { readableZone } from "~/utils/zone-label";

export const meta: MetaFunction = () => [{ title: "Scheduled open" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireModule(request, context, "company_settings");
  return { schedule: await getScheduleOpen(getDb(context), auth), zone: companyZone(auth) };
}

/** The form posts plain fields in Conform's names, read as posted (the API's strings); refusals come back as Conform's reply on those fields. */
export async function action({ request, context }: ActionFunctionArgs) {
  const auth = await requireModule(request, context, "company_settings", "modify");
  return formAction(request, scheduleOpenSchema, async (value) => {
    // The service keys a row's error `schedule_opens.2.closeTime`.
    await inFormFieldNames(() => saveScheduleOpen(getDb(context), auth, value, nowMs(), context.core));
    return redirectWithMessage({ request, context }, { to: "/scheduleOpen", ns: "settings", message: SETTINGS_MSG.scheduleChanged });
  });
}

export default function ScheduleOpenPage() {
  const { schedule, zone } = useLoaderData<typeof loader>();
  const actionData = useActionData<FormReply>();
  const { t } = useTranslation("settings");
  return (
    <div className="max-w-4xl">
      <PageHeader title={t("schedule.title")} description={t("schedule.description")} />
      {/* The doors follow the company's zone: say which, so nobody types hours in their own. */}
      <p className="mb-4 text-sm text-muted-foreground" data-testid="schedule-zone">
        {t("schedule.zone", { zone: readableZone(zone) })}
      </p>
      {schedule.hasSettings && !schedule.scheduleOpen && (
        <p role="note" className="mb-4 rounded-md border px-3 py-2 text-sm text-muted-foreground">
          {t("schedule.off")}
        </p>
      )}
      {schedule.hasSettings ? (
        <ScheduleForm key={JSON.stringify(schedule)} data={schedule} lastResult={actionData?.result} />
      ) : (
        <div className="grid gap-4">
          <p role="status" className="text-sm text-muted-foreground">
            {t("schedule.noSettings")}
          </p>
          <Button asChild variant="outline" className="w-fit">
            <Link to="/companySettings">{t("back")}</Link>
          </Button>
        </div>
      )}
    </div>
  );
}
