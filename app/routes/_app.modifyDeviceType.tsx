import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { DeviceTypeForm } from "~/components/device-types/device-type-form";
import { Button } from "~/components/ui/button";
import { PageHeader } from "~/components/ui/page-header";
import { getFixedT, getLanguage } from "~/i18n/i18next.server";
import { translateMessage } from "~/i18n/messages";
import { getDeviceTypeDetails, updateDeviceType } from "~/services/device-types.server";
import { requireModule } from "~/utils/auth-guards.server";
import { getDb, nowMs } from "~/utils/db.server";
import { ServiceError } from "~/utils/errors.server";
import { redirectWithToast } from "~/utils/toast.server";
import { formAction } from "~/utils/form-action.server";
import { deviceTypeFormSchema } from "~/schemas/device-types";

export const meta: MetaFunction = () => [{ title: "Modify Device Type" }];

const MODULES = ["deviceType", "company"] as const;
const idOf = (request: Request) => Number(new URL(request.url).searchParams.get("id"));

export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireModule(request, context, MODULES, "modify");
  if (auth.company.type !== "root") throw new Response("Forbidden", { status: 403 });
  const id = idOf(request);
  if (!Number.isInteger(id) || id <= 0) throw redirect("/deviceType");
  try {
    return { type: await getDeviceTypeDetails(getDb(context), auth, id) };
  } catch (e) {
    if (e instanceof ServiceError && e.status === 404) throw redirect("/deviceType");
    throw e;
  }
}

export async function action({ request, context }: ActionFunctionArgs) {
  const auth = await requireModule(request, context, MODULES, "modify");
  return formAction(await request.formData(), deviceTypeFormSchema, async (value) => {
    const r = await updateDeviceType(getDb(context), auth, idOf(request), value, nowMs());
    const t = await getFixedT(await getLanguage(request), "deviceTypes");
    return redirectWithToast("/deviceType", { type: "success", message: translateMessage(t, r.message, "deviceTypes") }, context.cloudflare.env);
  });
}

export default function ModifyDeviceTypePage() {
  const { type } = useLoaderData<typeof loader>();
  const { t } = useTranslation("deviceTypes");
  return (
    <div className="grid gap-6">
      <PageHeader
        title={t("modifyTitle")}
        description={`${type.deviceType} (${type.deviceCode})`}
        actions={
          <Button asChild variant="outline">
            <Link to="/deviceType">{t("backToList")}</Link>
          </Button>
        }
      />
      <DeviceTypeForm initial={{ deviceCode: type.deviceCode, deviceType: type.deviceType }} submitLabel={t("save")} />
    </div>
  );
}
