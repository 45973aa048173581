import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { DateForm, ImportForm, RenameForm } from "~/components/holidays/holiday-forms";
import { Button } from "~/components/ui/button";
import { PageHeader } from "~/components/ui/page-header";
import { calendarFormSchema, holidayDateSchema, importSchema } from "~/schemas/holidays";
import { getCalendar, importHolidays, removeDate, renameCalendar, saveDate } from "~/services/holidays.server";
import { publicHolidaySets } from "~/services/public-holidays/index.server";
import { companyZone, requireModule } from "~/utils/auth-guards.server";
import { getDb, nowMs } from "~/utils/db.server";
import { formAction, type FormReply } from "~/utils/form-action.server";
import { formatCalendarDate } from "~/utils/format";
import { idFromUrl, loadRecord } from "~/utils/record-from-url.server";
import { rowSchema } from "~/utils/row-action.server";
import { redirectWithMessage } from "~/utils/toast.server";
import { importYears } from "./holiday-import-years.server";

export const meta: MetaFunction = () => [{ title: "Holiday calendar" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireModule(request, context, "company_settings");
  const calendar = await loadRecord(request, { list: "/holidayCalendars" }, (id) => getCalendar(getDb(context), auth, id));
  return { calendar, sets: publicHolidaySets(), ...importYears(context.core, companyZone(auth), nowMs()) };
}

/** One page, four posts told apart by `intent`: rename, save a date, import a set, remove a date. */
export async function action({ request, context }: ActionFunctionArgs) {
  const auth = await requireModule(request, context, "company_settings", "modify");
  const db = getDb(context);
  const id = idFromUrl(request) ?? 0;
  const formData = await request.formData();
  const intent = String(formData.get("intent") ?? "");
  const page = { request, context };
  const done = (message: string) => redirectWithMessage(page, { ns: "holidays", message });
  switch (intent) {
    case "rename":
      return formAction(request, calendarFormSchema, async (v) => done((await renameCalendar(db, auth, id, v, nowMs())).message), { formData, extra: { intent } });
    case "date":
      return formAction(request, holidayDateSchema, async (v) => done((await saveDate(db, auth, id, v, nowMs())).message), { formData, extra: { intent } });
    case "import":
      return formAction(request, importSchema, async (v) => done((await importHolidays(db, auth, id, v, nowMs())).message), { formData, extra: { intent } });
    case "removeDate":
      return formAction(request, rowSchema, async (v) => done((await removeDate(db, auth, id, v.id, nowMs())).message), {
        formData,
        onRefusal: (message) => redirectWithMessage(page, { ns: "holidays", message, type: "error" }),
      });
    default:
      throw new Response("Unknown intent", { status: 400 });
  }
}

export default function ModifyHolidayCalendarPage() {
  const { calendar, sets, years, year } = useLoaderData<typeof loader>();
  const actionData = useActionData<FormReply & { intent?: string }>();
  const { t, i18n } = useTranslation("holidays");
  const last = (intent: string) => (actionData?.intent === intent ? actionData.result : undefined);
  return (
    <div className="grid gap-6">
      <PageHeader title={`${t("modifyTitle")}: ${calendar.name}`} back={{ to: "/holidayCalendars", label: t("backToList") }} />
      <RenameForm key={calendar.name} name={calendar.name} lastResult={last("rename")} />
      <section className="grid gap-4" aria-labelledby="calendar-dates">
        <h2 id="calendar-dates" className="text-base font-semibold">
          {t("datesTitle")}
        </h2>
        {calendar.dates.length === 0 ? (
          <p className="text-sm text-muted-foreground">{t("noDates")}</p>
        ) : (
          <div className="overflow-x-auto rounded-lg border">
            <table className="w-full text-sm" data-testid="calendar-dates">
              <thead className="bg-muted/50 text-left">
                <tr>
                  <th scope="col" className="px-3 py-2">
                    {t("date")}
                  </th>
                  <th scope="col" className="px-3 py-2">
                    {t("holidayName")}
                  </th>
                  <th scope="col" className="px-3 py-2">
                    {t("openTime")} – {t("closeTime")}
                  </th>
                  <th scope="col" className="px-3 py-2">
                    <span className="sr-only">{t("remove")}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {calendar.dates.map((d) => (
                  <tr key={d.id} className="border-t">
                    <td className="whitespace-nowrap px-3 py-2">
                      <time dateTime={d.date}>{formatCalendarDate(d.date, i18n.language)}</time>
                    </td>
                    <td className="px-3 py-2">{d.name}</td>
                    <td className="whitespace-nowrap px-3 py-2">
                      {d.openTime || d.closeTime ? t("hours", { open: d.openTime ?? "00:00", close: d.closeTime ?? "24:00" }) : t("wholeDay")}
                    </td>
                    <td className="px-3 py-2 text-right">
                      <Form method="post">
                        <input type="hidden" name="intent" value="removeDate" />
                        <input type="hidden" name="id" value={d.id} />
                        <Button type="submit" variant="link" size="inline" aria-label={t("removeDate", { date: d.date })}>
                          {t("remove")}
                        </Button>
                      </Form>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <DateForm lastResult={last("date")} />
        <ImportForm sets={sets} years={years} year={year} lastResult={last("import")} />
      </section>
    </div>
  );
}
