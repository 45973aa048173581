import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useTranslation } from "react-i18next";
import { CellForm } from "~/components/cells/cell-form";
import { PageHeader } from "~/components/ui/page-header";
import { cellFormSchema } from "~/schemas/cell-records";
import { addCell, assertPlatformAdmin } from "~/services/cells.server";
import { requireModule } from "~/utils/auth-guards.server";
import { getDb, nowMs } from "~/utils/db.server";
import { formAction } from "~/utils/form-action.server";
import { redirectWithMessage } from "~/utils/toast.server";

export const meta: MetaFunction = () => [{ title: "Add Cell" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  assertPlatformAdmin(await requireModule(request, context, "company", "add"), "add");
  return null;
}

export async function action({ request, context }: ActionFunctionArgs) {
  const auth = await requireModule(request, context, "company", "add");
  return formAction(request, cellFormSchema, async (value) => {
    const r = await addCell(getDb(context), auth, value, nowMs());
    return redirectWithMessage({ request, context }, { to: "/cells", ns: "cells", message: r.message });
  });
}

export default function AddCellPage() {
  const { t } = useTranslation("cells");
  return (
    <div className="grid gap-6">
      <PageHeader title={t("addTitle")} back={{ to: "/cells", label: t("backToList") }} />
      <CellForm submitLabel={t("add")} />
    </div>
  );
}
