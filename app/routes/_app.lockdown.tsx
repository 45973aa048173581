import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { ListPage } from "~/components/data-table/list-page";
import { tablePage } from "~/components/data-table/params";
import { lockdownColumns } from "~/components/lockdown/columns";
import { Alert, AlertDescription, AlertTitle } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { ZonedTime } from "~/components/ui/zoned-time";
import { LOCKDOWN_MSG } from "~/schemas/lockdown";
import { deletePlan, endLockdown, listPlans, lockdownBanner, startLockdown } from "~/services/lockdown.server";
import { companyZone, requireModule } from "~/utils/auth-guards.server";
import { getDb, nowMs } from "~/utils/db.server";
import { formAction } from "~/utils/form-action.server";
import { can } from "~/utils/permissions";
import { redirectWithMessage } from "~/utils/toast.server";

export const meta: MetaFunction = () => [{ title: "Lockdown" }];

const MODULE = "company_settings";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireModule(request, context, MODULE);
  const db = getDb(context);
  const page = await tablePage(request.url, { defaultSort: "name", sortable: ["name"] }, (params) => listPlans(db, auth, params));
  const p = auth.permissions;
  return {
    ...page,
    rows: page.rows.map((r) => ({ id: r.id, name: r.name, mode: r.mode, scope: r.scope, durationMinutes: r.durationMinutes })),
    inForce: await lockdownBanner(db, auth.company.id, nowMs()),
    zone: companyZone(auth),
    can: { add: can(p, MODULE, "add"), modify: can(p, MODULE, "modify"), start: can(p, MODULE, "modify"), delete: can(p, MODULE, "delete") },
  };
}

/** A row's start (the second step posts the typed name), the end of the lockdown in force, a plan's delete. */
const postSchema = z.object({
  intent: z.enum(["start", "end", "delete"]),
  id: z.coerce.number().int().positive().optional(),
  confirmName: z.string().max(100).optional(),
});

export async function action({ request, context }: ActionFunctionArgs) {
  const auth = await requireModule(request, context, MODULE, "modify");
  const page = { request, context };
  const db = getDb(context);
  return formAction(
    request,
    postSchema,
    async (v) => {
      const now = nowMs();
      if (v.intent === "start") await startLockdown(db, auth, { id: v.id, confirmName: v.confirmName ?? "" }, now, { confirm: true });
      else if (v.intent === "end") await endLockdown(db, auth, now);
      else await deletePlan(db, auth, { id: v.id }, now);
      const message = v.intent === "start" ? LOCKDOWN_MSG.started : v.intent === "end" ? LOCKDOWN_MSG.ended : LOCKDOWN_MSG.deleted;
      return redirectWithMessage(page, { ns: "lockdown", message });
    },
    { onRefusal: (message) => redirectWithMessage(page, { ns: "lockdown", message, type: "error" }) },
  );
}

export default function LockdownPage() {
  const { rows, total, params, inForce, zone, can } = useLoaderData<typeof loader>();
  const { t } = useTranslation("lockdown");
  const columns = useMemo(() => lockdownColumns(t, { modify: can.modify, start: can.start && !inForce, delete: can.delete }), [t, can, inForce]);
  return (
    <ListPage
      title={t("title")}
      description={t("description")}
      add={can.add && { to: "/addLockdownPlan", label: t("add") }}
      columns={columns}
      page={{ rows, total, params }}
      empty={t("empty")}
    >
      {inForce && (
        <Alert
          variant="destructive"
          actions={
            can.start && (
              <ConfirmDialog
                trigger={<Button variant="outline">{t("end")}</Button>}
                title={t("endTitle", { name: inForce.planName })}
                description={t("endDescription")}
                fields={{ intent: "end" }}
                confirmLabel={t("end")}
                cancelLabel={t("cancel")}
              />
            )
          }
        >
          <AlertTitle>{t(inForce.mode === "evacuation" ? "bannerEvacuation" : "bannerLockdown", { name: inForce.planName })}</AlertTitle>
          <AlertDescription>
            {t("bannerStartedBy", { name: inForce.startedBy })} <ZonedTime value={inForce.startedAt} timeZone={zone} />
          </AlertDescription>
        </Alert>
      )}
    </ListPage>
  );
}
