import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { UploadForm } from "~/components/ota/upload-form";
import { PageHeader } from "~/components/ui/page-header";
import { listDeviceTypes } from "~/services/firmware.server";
import { requireModule } from "~/utils/auth-guards.server";
import { getDb } from "~/utils/db.server";
import { otaUploadAction } from "~/routes/ota-upload-action.server";
import { redirectWithToast } from "~/utils/toast.server";

export const meta: MetaFunction = () => [{ title: "Add OTA" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireModule(request, context, "company", "add");
  return { deviceTypes: await listDeviceTypes(getDb(context)) };
}

/** The form's post without JavaScript; with it, the page uploads through /resources/ota/upload (same action, JSON answer). */
export async function action({ request, context }: ActionFunctionArgs) {
  return otaUploadAction(request, context, () => redirectWithToast("/ota", { type: "success", message: "OTA added successfully" }, context.cloudflare.env));
}

export default function AddOta() {
  const { deviceTypes } = useLoaderData<typeof loader>();
  const { t } = useTranslation("ota");
  return (
    <div>
      <PageHeader title={t("addTitle")} />
      <UploadForm deviceTypes={deviceTypes} />
    </div>
  );
}
