import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { alertFormAction } from "~/routes/alert-form-action.server";
import { AlertForm } from "~/components/alerts/alert-form";
import { alertFormOptions } from "~/routes/alert-form-options.server";
import { PageHeader } from "~/components/ui/page-header";
import { requireModule } from "~/utils/auth-guards.server";

export const meta: MetaFunction = () => [{ title: "Add alert" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireModule(request, context, "activity", "add");
  return alertFormOptions(context, auth);
}

export async function action({ request, context }: ActionFunctionArgs) {
  const auth = await requireModule(request, context, "activity", "add");
  return alertFormAction(request, context, auth, "add");
}

export default function AddAlert() {
  const { options, today, zoneId } = useLoaderData<typeof loader>();
  const { t } = useTranslation("alerts");
  return (
    <div>
      <PageHeader title={t("addTitle")} back={{ to: "/alerts", label: t("backToList") }} />
      <AlertForm
        mode="add"
        options={options}
        today={today}
        values={{
          name: "",
          activities: [],
          createdBy: [],
          targetUsers: [],
          devices: [],
          // Most alerts watch around the clock; a custom schedule is the exception.
          schedule: "any",
          startDate: today,
          endDate: "",
          neverEnds: true,
          days: Array(7).fill(true),
          allDay: true,
          startTime: "",
          endTime: "",
          onHolidays: "ignore",
          holidayCalendarId: "",
          timeZoneId: zoneId == null ? "" : String(zoneId),
          recipientUsers: [],
          recipientChannels: {},
          recipientEmails: "",
        }}
      />
    </div>
  );
}
