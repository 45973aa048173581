import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { UPLOAD_HEADER, UploadForm } from "~/components/ota/upload-form";
import { PageHeader } from "~/components/ui/page-header";
import { addOtaSchema } from "~/schemas/firmware";
import { createRelease, listDeviceTypes } from "~/services/firmware.server";
import { requireModule } from "~/utils/auth-guards.server";
import { getDb, nowMs } from "~/utils/db.server";
import { ServiceError } from "~/utils/errors.server";
import { parseInput } from "~/utils/parse-input.server";
import { redirectWithToast } from "~/utils/toast.server";

export const meta: MetaFunction = () => [{ title: "Add OTA" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireModule(request, context, "company", "add");
  return { deviceTypes: await listDeviceTypes(getDb(context)) };
}

/**
 * The page's XMLHttpRequest upload (header X-Ota-Upload) gets a plain JSON answer it can read;
 * a form post without JavaScript gets the usual redirect or field errors.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const auth = await requireModule(request, context, "company", "add");
  const byXhr = request.headers.get(UPLOAD_HEADER) === "1";
  const answer = (status: number, body: Record<string, unknown>) =>
    byXhr ? new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } }) : body;
  const env = context.cloudflare.env;
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    return answer(400, { message: "Expected a multipart/form-data body" });
  }
  try {
    await createRelease(getDb(context), env.FIRMWARE, auth, parseInput(addOtaSchema, Object.fromEntries(form.entries())), nowMs());
  } catch (e) {
    if (!(e instanceof ServiceError)) throw e;
    return answer(e.status, e.details.fieldErrors ? { errors: e.details.fieldErrors } : { message: e.message });
  }
  if (byXhr) return answer(200, { ok: true });
  return redirectWithToast("/ota", { type: "success", message: "OTA added successfully" }, env);
}

export default function AddOta() {
  const { deviceTypes } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>() as { errors?: Record<string, string[]> } | undefined;
  const { t } = useTranslation("ota");
  return (
    <div>
      <PageHeader title={t("addTitle")} />
      <UploadForm t={t} deviceTypes={deviceTypes} serverErrors={actionData?.errors} />
    </div>
  );
}
