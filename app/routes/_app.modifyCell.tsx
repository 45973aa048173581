import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { CellForm } from "~/components/cells/cell-form";
import { PageHeader } from "~/components/ui/page-header";
import { cellFormSchema } from "~/schemas/cell-records";
import { assertPlatformAdmin, getCell, modifyCell } from "~/services/cells.server";
import { requireModule } from "~/utils/auth-guards.server";
import { getDb, nowMs } from "~/utils/db.server";
import { formAction } from "~/utils/form-action.server";
import { ServiceError } from "~/utils/errors.server";
import { redirectWithMessage } from "~/utils/toast.server";

export const meta: MetaFunction = () => [{ title: "Modify Cell" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireModule(request, context, "company", "modify");
  assertPlatformAdmin(auth, "modify");
  // Cells are named, not numbered: without a name, or with an unknown one, back to the list.
  const name = new URL(request.url).searchParams.get("name");
  if (!name) throw redirect("/cells");
  const cell = await getCell(getDb(context), auth, name).catch((e) => {
    throw e instanceof ServiceError && e.status === 404 ? redirect("/cells") : e;
  });
  return { cell };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const auth = await requireModule(request, context, "company", "modify");
  return formAction(request, cellFormSchema, async (value) => {
    const r = await modifyCell(getDb(context), auth, value, nowMs());
    return redirectWithMessage({ request, context }, { to: "/cells", ns: "cells", message: r.message });
  });
}

export default function ModifyCellPage() {
  const { cell } = useLoaderData<typeof loader>();
  const { t } = useTranslation("cells");
  return (
    <div className="grid gap-6">
      <PageHeader title={t("modifyTitle")} description={t("modifyDescription", { name: cell.name, count: cell.companies })} back={{ to: "/cells", label: t("backToList") }} />
      <CellForm initial={cell} companies={cell.companies} submitLabel={t("save")} />
    </div>
  );
}
