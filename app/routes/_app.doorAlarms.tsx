import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useActionData, useLoaderData } from "@remix-run/react";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { alarmColumns } from "~/components/alarms/alarm-columns";
import { AlarmFilterBar } from "~/components/alarms/alarm-filters";
import { ListPage } from "~/components/data-table/list-page";
import { tablePage } from "~/components/data-table/params";
import { acknowledgeAlarmSchema, parseAlarmFilters } from "~/schemas/door-alarms";
import { acknowledgeAlarm, ALARM_SORTS, alarmDoors, listDoorAlarms } from "~/services/door-alarms.server";
import { companyZone, requireModule } from "~/utils/auth-guards.server";
import { getDb, nowMs } from "~/utils/db.server";
import { formAction, type FormReply } from "~/utils/form-action.server";
import { can } from "~/utils/permissions";
import { redirectWithMessage } from "~/utils/toast.server";

export const meta: MetaFunction = () => [{ title: "Door alarms" }];

/** Door alarms (decision 0076): active and recent ones, filtered by state, type, door and days. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireModule(request, context, "activity");
  const url = new URL(request.url);
  const filters = parseAlarmFilters(url.searchParams);
  const db = getDb(context);
  const tz = companyZone(auth);
  const [page, doors] = await Promise.all([
    tablePage(url, { defaultSort: "-raisedAt", sortable: ALARM_SORTS }, (_, slice) => listDoorAlarms(db, auth, { filters, tz, ...slice })),
    alarmDoors(db, auth),
  ]);
  return { ...page, filters, doors, tz, canAcknowledge: can(auth.permissions, "activity", "modify") };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const auth = await requireModule(request, context, "activity", "modify");
  const formData = await request.formData();
  return formAction(
    request,
    acknowledgeAlarmSchema,
    async (v) => redirectWithMessage({ request, context }, { ns: "alarms", message: (await acknowledgeAlarm(getDb(context), auth, v, nowMs())).message }),
    { formData, extra: { id: Number(formData.get("id")) } },
  );
}

export default function DoorAlarms() {
  const { rows, total, params, filters, doors, tz, canAcknowledge } = useLoaderData<typeof loader>();
  const refusal = useActionData<Partial<FormReply> & { id?: number }>();
  const { t } = useTranslation("alarms");
  const columns = useMemo(() => {
    const refused = refusal?.result && refusal.id ? { id: refusal.id, result: refusal.result } : undefined;
    return alarmColumns(t, { tz, canAcknowledge, refused });
  }, [t, tz, canAcknowledge, refusal]);
  const filtered = Object.keys(filters).length > 0;
  return (
    <ListPage title={t("title")} caption={t("caption")} columns={columns} page={{ rows, total, params }} empty={t(filtered ? "emptyFiltered" : "empty")}>
      <AlarmFilterBar t={t} filters={filters} doors={doors} />
    </ListPage>
  );
}
