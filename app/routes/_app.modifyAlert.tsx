import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { alertFormAction } from "~/routes/alert-form-action.server";
import { AlertForm, type AlertFormValues } from "~/components/alerts/alert-form";
import { alertFormOptions } from "~/routes/alert-form-options.server";
import { PageHeader } from "~/components/ui/page-header";
import { getFixedT, getLanguage } from "~/i18n/i18next.server";
import { getAlertDetails, type AlertDetails } from "~/services/alerts.server";
import { requireModule } from "~/utils/auth-guards.server";
import { getDb } from "~/utils/db.server";
import { loadRecord } from "~/utils/record-from-url.server";

import { can } from "~/utils/permissions";

export const meta: MetaFunction = () => [{ title: "Modify alert" }];

/** A picker's chosen entries with their names; "any" is labelled by the page. */
const chips = (d: AlertDetails, kind: string, anyLabel: string) =>
  d.targets
    .filter((x) => x.kind === kind)
    .map((x) => (x.refId === null ? { value: "any", label: anyLabel } : { value: String(x.refId), label: (kind === "device" ? x.deviceName : x.userName) ?? String(x.refId) }));

/** `companyZone` fills the zone only when the alert has none (an "any time" alert), as Add does; a saved zone is kept. */
function formValues(d: AlertDetails, companyZone: number | null, any: { user: string; device: string }): AlertFormValues {
  const a = d.alert;
  return {
    id: a.id,
    name: a.name,
    activities: d.activities.map((x) => x.name),
    createdBy: chips(d, "created_by", any.user),
    targetUsers: chips(d, "target_user", any.user),
    devices: chips(d, "device", any.device),
    schedule: a.schedule,
    startDate: a.startDate ?? "",
    endDate: a.endDate ?? "",
    neverEnds: a.isNeverEnd,
    days: [...a.days].map((c) => c === "1"),
    allDay: a.isAllDay,
    startTime: a.startTime ?? "",
    endTime: a.endTime ?? "",
    onHolidays: a.onHolidays,
    holidayCalendarId: a.holidayCalendarId == null ? "" : String(a.holidayCalendarId),
    timeZoneId: String(a.timeZoneId ?? companyZone ?? ""),
    recipientUsers: d.recipients.flatMap((r) => (r.userId ? [{ value: String(r.userId), label: r.name ?? r.email }] : [])),
    recipientChannels: Object.fromEntries(d.recipients.flatMap((r) => (r.userId ? [[String(r.userId), r.channel]] : []))),
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
    const [details, form, t] = await Promise.all([getAlertDetails(getDb(context), auth, id), alertFormOptions(context, auth), getFixedT(await getLanguage(request), "alerts")]);
    return {
      values: formValues(details, form.zoneId, { user: t("anyUser"), device: t("anyDevice") }),
      ...form,
      updatedAt: details.alert.updatedAt,
      readOnly: !can(auth.permissions, "activity", "modify"),
    };
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
