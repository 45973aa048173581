import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData, useRevalidator } from "@remix-run/react";
import { useEffect, useMemo } from "react";
import { useTranslation } from "react-i18next";
import { DataTable } from "~/components/data-table/data-table";
import { parseTableParams } from "~/components/data-table/params";
import { ProgressList } from "~/components/ota/progress-list";
import { releaseColumns } from "~/components/ota/release-columns";
import { Button } from "~/components/ui/button";
import { EmptyState } from "~/components/ui/empty-state";
import { PageHeader } from "~/components/ui/page-header";
import { otaIdSchema } from "~/schemas/firmware";
import { activateRelease, deleteRelease, listProgress, listReleases, OTA_PAGE_SIZE } from "~/services/firmware.server";
import { requireModule } from "~/utils/auth-guards.server";
import { getDb, nowMs } from "~/utils/db.server";
import { ServiceError } from "~/utils/errors.server";
import { can } from "~/utils/permissions";
import { redirectWithToast } from "~/utils/toast.server";

export const meta: MetaFunction = () => [{ title: "OTA" }];

/** While boards are downloading, the progress bars refresh on their own. */
const PROGRESS_REFRESH_MS = 5000;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireModule(request, context, "company");
  const params = parseTableParams(request.url, { defaultSort: "createdAt", sortable: ["createdAt"], pageSize: OTA_PAGE_SIZE });
  const db = getDb(context);
  const [{ rows, total }, progress] = await Promise.all([listReleases(db, auth, { page: params.page, pageSize: params.pageSize }), listProgress(db, auth)]);
  return {
    rows,
    total,
    params,
    progress,
    can: { add: can(auth.permissions, "company", "add"), modify: can(auth.permissions, "company", "modify"), remove: can(auth.permissions, "company", "delete") },
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.formData();
  const intent = form.get("intent");
  if (intent !== "activate" && intent !== "delete") return { error: "Unknown action" };
  const auth = await requireModule(request, context, "company", intent === "activate" ? "modify" : "delete");
  const parsed = otaIdSchema.safeParse({ id: form.get("id") });
  if (!parsed.success) return { error: "id is required" };
  const db = getDb(context);
  const env = context.cloudflare.env;
  const back = new URL(request.url);
  try {
    if (intent === "activate") await activateRelease(db, auth, parsed.data.id, nowMs());
    else await deleteRelease(db, env.FIRMWARE, auth, parsed.data.id, nowMs());
  } catch (e) {
    if (e instanceof ServiceError) return redirectWithToast(back.pathname + back.search, { type: "error", message: e.message }, env);
    throw e;
  }
  const message = intent === "activate" ? "OTA activated successfully" : "OTA deleted successfully";
  return redirectWithToast(back.pathname + back.search, { type: "success", message }, env);
}

export default function Ota() {
  const { rows, total, params, progress, can } = useLoaderData<typeof loader>();
  const { t } = useTranslation("ota");
  const columns = useMemo(() => releaseColumns(t, can), [t, can]);
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
        <PageHeader
          title={t("title")}
          actions={
            can.add ? (
              <Button asChild>
                <Link to="/addota">{t("add")}</Link>
              </Button>
            ) : null
          }
        />
        <DataTable
          columns={columns}
          data={rows}
          total={total}
          params={params}
          caption={t("caption")}
          getRowId={(r) => String(r.id)}
          emptyState={<EmptyState title={t("empty")} />}
        />
      </section>
      <section aria-labelledby="ota-progress">
        <h2 id="ota-progress" className="mb-3 text-lg font-semibold">
          {t("progressTitle")}
        </h2>
        <ProgressList rows={progress} t={t} />
      </section>
    </div>
  );
}
