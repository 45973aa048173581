import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { ListPage } from "~/components/data-table/list-page";
import { tablePage } from "~/components/data-table/params";
import { calendarColumns } from "~/components/holidays/columns";
import { CALENDAR_SORTS, deleteCalendar, listCalendars } from "~/services/holidays.server";
import { companyZone, requireModule } from "~/utils/auth-guards.server";
import { getDb, nowMs } from "~/utils/db.server";
import { can } from "~/utils/permissions";
import { rowAction, rowSchema } from "~/utils/row-action.server";

export const meta: MetaFunction = () => [{ title: "Holiday calendars" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireModule(request, context, "company_settings");
  const page = await tablePage(request.url, { defaultSort: "name", sortable: Object.keys(CALENDAR_SORTS) }, (params, slice) => listCalendars(getDb(context), auth, slice));
  const p = auth.permissions;
  return {
    ...page,
    timeZone: companyZone(auth),
    can: { add: can(p, "company_settings", "add"), modify: can(p, "company_settings", "modify"), delete: can(p, "company_settings", "delete") },
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const auth = await requireModule(request, context, "company_settings", "delete");
  return rowAction(request, context, "holidays", rowSchema, async ({ id }) => (await deleteCalendar(getDb(context), auth, id, nowMs())).message);
}

export default function HolidayCalendarsPage() {
  const { rows, total, params, can, timeZone } = useLoaderData<typeof loader>();
  const { t } = useTranslation("holidays");
  const columns = useMemo(() => calendarColumns(t, { canModify: can.modify, canDelete: can.delete, timeZone }), [t, can.modify, can.delete, timeZone]);
  return (
    <ListPage
      title={t("title")}
      description={t("description")}
      add={can.add && { to: "/addHolidayCalendar", label: t("add") }}
      columns={columns}
      page={{ rows, total, params }}
      empty={t("empty")}
    />
  );
}
