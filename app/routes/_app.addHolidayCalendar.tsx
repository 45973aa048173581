import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { AddCalendarForm } from "~/components/holidays/add-calendar-form";
import { PageHeader } from "~/components/ui/page-header";
import { addCalendarSchema } from "~/schemas/holidays";
import { addCalendar } from "~/services/holidays.server";
import { publicHolidaySets } from "~/services/public-holidays/index.server";
import { companyZone, requireModule } from "~/utils/auth-guards.server";
import { getDb, nowMs } from "~/utils/db.server";
import { formAction } from "~/utils/form-action.server";
import { redirectWithMessage } from "~/utils/toast.server";
import { importYears } from "./holiday-import-years.server";

export const meta: MetaFunction = () => [{ title: "Add holiday calendar" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireModule(request, context, "company_settings", "add");
  return { sets: publicHolidaySets(), ...importYears(context.core, companyZone(auth), nowMs()) };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const auth = await requireModule(request, context, "company_settings", "add");
  return formAction(request, addCalendarSchema, async (value) => {
    const r = await addCalendar(getDb(context), auth, value, nowMs());
    return redirectWithMessage({ request, context }, { to: `/modifyHolidayCalendar?id=${r.id}`, ns: "holidays", message: r.message });
  });
}

export default function AddHolidayCalendarPage() {
  const { sets, years, year } = useLoaderData<typeof loader>();
  const { t } = useTranslation("holidays");
  return (
    <div className="grid gap-6">
      <PageHeader title={t("addTitle")} back={{ to: "/holidayCalendars", label: t("backToList") }} />
      <AddCalendarForm sets={sets} years={years} year={year} />
    </div>
  );
}
