import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData, useRevalidator } from "@remix-run/react";
import { useEffect, useMemo } from "react";
import { useTranslation } from "react-i18next";
import { ListPage } from "~/components/data-table/list-page";
import { tablePage } from "~/components/data-table/params";
import { ProgressList } from "~/components/ota/progress-list";
import { LinkButton } from "~/components/ui/link-button";
import { releaseColumns } from "~/components/ota/release-columns";
import { activateRelease, deleteRelease, listProgress, listReleases, OTA_PAGE_SIZE } from "~/services/firmware.server";
import { companyZone, requireModule } from "~/utils/auth-guards.server";
import { getDb, nowMs } from "~/utils/db.server";
import { can } from "~/utils/permissions";
import { z } from "zod";
import { rowAction, rowSchema } from "~/utils/row-action.server";

export const meta: MetaFunction = () => [{ title: "OTA" }];

/** While boards are downloading, the progress bars refresh on their own. */
const PROGRESS_REFRESH_MS = 5000;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireModule(request, context, "company");
  const db = getDb(context);
  const [page, progress] = await Promise.all([
    tablePage(request.url, { defaultSort: "createdAt", sortable: ["createdAt"], pageSize: OTA_PAGE_SIZE }, (params) =>
      listReleases(db, auth, { page: params.page, pageSize: params.pageSize }),
    ),
    listProgress(db, auth),
  ]);
  return {
    ...page,
    progress,
    timeZone: companyZone(auth),
    can: { add: can(auth.permissions, "company", "add"), modify: can(auth.permissions, "company", "modify"), remove: can(auth.permissions, "company", "delete") },
  };
}

const otaRowSchema = rowSchema.extend({ intent: z.enum(["activate", "delete"], { message: "Unknown action" }) });

export async function action({ request, context }: ActionFunctionArgs) {
  // The right depends on the button (activate: modify, delete: delete); the row action reads the post again.
  const intent = (await request.clone().formData()).get("intent");
  const auth = await requireModule(request, context, "company", intent === "activate" ? "modify" : "delete");
  const db = getDb(context);
  return rowAction(request, context, "ota", otaRowSchema, async ({ id, intent }) => {
    if (intent === "activate") await activateRelease(db, auth, id, nowMs());
    else await deleteRelease(db, context.cloudflare.env.FIRMWARE, auth, id, nowMs());
    return intent === "activate" ? "OTA activated successfully" : "OTA deleted successfully";
  });
}

export default function Ota() {
  const { rows, total, params, progress, timeZone, can } = useLoaderData<typeof loader>();
  const { t } = useTranslation("ota");
  const columns = useMemo(() => releaseColumns(t, can, timeZone), [t, can, timeZone]);
  const revalidator = useRevalidator();
  const downloading = progress.some((p) => p.state === "downloading" || p.state === "offered");
  useEffect(() => {
    if (!downloading) return;
    const timer = setInterval(() => revalidator.state === "idle" && revalidator.revalidate(), PROGRESS_REFRESH_MS);
    return () => clearInterval(timer);
  }, [downloading, revalidator]);

  return (
    <div className="grid gap-8">
      <section>
        <ListPage
          title={t("title")}
          caption={t("caption")}
          actions={
            <LinkButton to="/firmwareRollouts" variant="outline">
              {t("rollouts")}
            </LinkButton>
          }
          add={can.add && { to: "/addota", label: t("add") }}
          columns={columns}
          page={{ rows, total, params }}
          empty={t("empty")}
        />
        <p className="mt-3 text-sm text-muted-foreground" data-testid="ota-policy">
          {t("policyNote")}
        </p>
      </section>

      <section aria-labelledby="ota-progress">
        <h2 id="ota-progress" className="mb-3 text-lg font-semibold">
          {t("progressTitle")}
        </h2>
        <ProgressList rows={progress} t={t} timeZone={timeZone} />
      </section>
    </div>
  );
}
