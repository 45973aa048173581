import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { alertFormAction } from "~/routes/alert-form-action.server";
import { AlertForm, type AlertFormValues } from "~/components/alerts/alert-form";
import { alertFormOptions } from "~/routes/alert-form-options.server";
import { PageHeader } from "~/components/ui/page-header";
import { getAlertDetails, type AlertDetails } from "~/services/alerts.server";
import { requireModule } from "~/utils/auth-guards.server";
import { getDb } from "~/utils/db.server";
import { loadRecord } from "~/utils/record-from-url.server";

import { can } from "~/utils/permissions";

export const meta: MetaFunction = () => [{ title: "Modify alert" }];

const ids = (d: AlertDetails, kind: string) => d.targets.filter((x) => x.kind === kind).map((x) => (x.refId === null ? "any" : String(x.refId)));

/** `companyZone` fills the zone only when the alert has none (an "any time" alert), as Add does; a saved zone is kept. */
function formValues(d: AlertDetails, companyZone: number | null): AlertFormValues {
  const a = d.alert;
  return {
    id: a.id,
    name: a.name,
    activity: d.activity.name,
    createdBy: ids(d, "created_by"),
    targetUsers: ids(d, "target_user"),
    devices: ids(d, "device"),
    schedule: a.schedule,
    startDate: a.startDate ?? "",
    endDate: a.endDate ?? "",
    neverEnds: a.isNeverEnd,
    days: [...a.days].map((c) => c === "1"),
    allDay: a.isAllDay,
    startTime: a.startTime ?? "",
    endTime: a.endTime ?? "",
    timeZoneId: String(a.timeZoneId ?? companyZone ?? ""),
    recipientUsers: d.recipients.flatMap((r) => (r.userId ? [String(r.userId)] : [])),
    recipientEmails: d.recipients
      .filter((r) => !r.userId)
      .map((r) => r.email)
      .join(", "),
  };
}

/** Without an id, or with one that is not the company's, back to the list. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireModule(request, context, "activity");
  return loadRecord(request, { list: "/alerts" }, async (id) => {
    const [details, form] = await Promise.all([getAlertDetails(getDb(context), auth, id), alertFormOptions(context, auth)]);
    return { values: formValues(details, form.zoneId), ...form, updatedAt: details.alert.updatedAt, readOnly: !can(auth.permissions, "activity", "modify") };
  });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const auth = await requireModule(request, context, "activity", "modify");
  return alertFormAction(request, context, auth, "modify");
}

export default function ModifyAlert() {
  const { values, options, today, updatedAt, readOnly } = useLoaderData<typeof loader>();
  const { t } = useTranslation("alerts");
  return (
    <div>
      <PageHeader title={t("modifyTitle", { name: values.name })} back={{ to: "/alerts", label: t("backToList") }} />
      <AlertForm key={`${values.id}-${updatedAt}`} mode="modify" options={options} today={today} values={values} readOnly={readOnly} />
    </div>
  );
}
