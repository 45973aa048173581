import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ScheduleForm } from "~/components/settings/schedule-form";
import { Button } from "~/components/ui/button";
import { PageHeader } from "~/components/ui/page-header";
import { getFixedT, getLanguage } from "~/i18n/i18next.server";
import { translateMessage } from "~/i18n/messages";
import { scheduleErrorKey, scheduleOpenSchema, SETTINGS_MESSAGES } from "~/schemas/settings";
import { getScheduleOpen, saveScheduleOpen } from "~/services/scheduled-open.server";
import { requireModule } from "~/utils/auth-guards.server";
import { getDb, nowMs } from "~/utils/db.server";
import { ServiceError } from "~/utils/errors.server";
import { parseInput } from "~/utils/parse-input.server";
import { redirectWithToast } from "~/utils/toast.server";

export const meta: MetaFunction = () => [{ title: "Scheduled open" }];

type ActionData = { errors: Record<string, string[]> };

export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireModule(request, context, "company_settings");
  return getScheduleOpen(getDb(context), auth);
}

/** The form posts JSON in the API's shape; errors come back keyed like `schedule_opens.0.closeTime`. */
export async function action({ request, context }: ActionFunctionArgs) {
  const auth = await requireModule(request, context, "company_settings", "modify");
  const body: unknown = await request.json().catch(() => null);
  try {
    await saveScheduleOpen(getDb(context), auth, parseInput(scheduleOpenSchema, body, scheduleErrorKey), nowMs(), context.core);
  } catch (e) {
    if (!(e instanceof ServiceError)) throw e;
    return data({ errors: e.details.fieldErrors ?? { _: [e.message] } } satisfies ActionData, { status: e.status });
  }
  const t = await getFixedT(await getLanguage(request), "settings");
  return redirectWithToast("/scheduleOpen", { type: "success", message: translateMessage(t, SETTINGS_MESSAGES.scheduleChanged, "settings") }, context.cloudflare.env);
}

export default function ScheduleOpenPage() {
  const schedule = useLoaderData<typeof loader>();
  const actionData = useActionData<ActionData>();
  const { t } = useTranslation("settings");
  return (
    <div className="max-w-4xl">
      <PageHeader title={t("schedule.title")} description={t("schedule.description")} />
      {schedule.hasSettings && !schedule.scheduleOpen && (
        <p role="note" className="mb-4 rounded-md border px-3 py-2 text-sm text-muted-foreground">
          {t("schedule.off")}
        </p>
      )}
      {schedule.hasSettings ? (
        <ScheduleForm key={JSON.stringify(schedule)} data={schedule} serverErrors={actionData?.errors} />
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
