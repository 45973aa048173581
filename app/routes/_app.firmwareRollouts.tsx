import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { ListPage } from "~/components/data-table/list-page";
import { tablePage } from "~/components/data-table/params";
import { rolloutColumns } from "~/components/ota/rollout-columns";
import { ROLLOUT_MSG } from "~/schemas/firmware-rollouts";
import { abortRollout, listRollouts, pauseRollout, resumeRollout, ROLLOUT_PAGE_SIZE } from "~/services/firmware-rollouts.server";
import { companyZone, requireModule } from "~/utils/auth-guards.server";
import { getDb, nowMs } from "~/utils/db.server";
import { can } from "~/utils/permissions";
import { rowAction, rowSchema } from "~/utils/row-action.server";

export const meta: MetaFunction = () => [{ title: "Firmware Rollouts" }];

/** Staged firmware rollouts (decision 0094), newest first, each wave's health beside its controls. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireModule(request, context, "company");
  const db = getDb(context);
  const now = nowMs();
  const page = await tablePage(request.url, { defaultSort: "", sortable: [], pageSize: ROLLOUT_PAGE_SIZE }, (params) =>
    listRollouts(db, auth, now, { page: params.page, pageSize: params.pageSize }),
  );
  return { ...page, timeZone: companyZone(auth), can: { modify: can(auth.permissions, "company", "modify") } };
}

const CONTROLS = { pause: [pauseRollout, ROLLOUT_MSG.paused], resume: [resumeRollout, ROLLOUT_MSG.resumed], abort: [abortRollout, ROLLOUT_MSG.aborted] } as const;
const controlSchema = rowSchema.extend({ intent: z.enum(["pause", "resume", "abort"], { message: "Unknown action" }) });

export async function action({ request, context }: ActionFunctionArgs) {
  const auth = await requireModule(request, context, "company", "modify");
  return rowAction(request, context, "ota", controlSchema, async ({ id, intent }) => {
    const [run, message] = CONTROLS[intent];
    await run(getDb(context), auth, id, nowMs());
    return message;
  });
}

export default function FirmwareRolloutsPage() {
  const { rows, total, params, timeZone, can } = useLoaderData<typeof loader>();
  const { t } = useTranslation("ota");
  const columns = useMemo(() => rolloutColumns(t, { modify: can.modify, timeZone }), [t, can.modify, timeZone]);
  return (
    <ListPage
      title={t("rolloutsTitle")}
      description={t("rolloutsDescription")}
      add={can.modify && { to: "/addFirmwareRollout", label: t("startRollout") }}
      columns={columns}
      page={{ rows, total, params }}
      empty={t("rolloutsEmpty")}
    />
  );
}
