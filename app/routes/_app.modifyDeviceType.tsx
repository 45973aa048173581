import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { DeviceTypeForm } from "~/components/device-types/device-type-form";
import { PageHeader } from "~/components/ui/page-header";
import { getDeviceTypeDetails, updateDeviceType } from "~/services/device-types.server";
import { requireModule } from "~/utils/auth-guards.server";
import { getDb, nowMs } from "~/utils/db.server";
import { loadRecord } from "~/utils/record-from-url.server";
import { redirectWithMessage } from "~/utils/toast.server";
import { formAction } from "~/utils/form-action.server";
import { deviceTypeFormSchema } from "~/schemas/device-types";

export const meta: MetaFunction = () => [{ title: "Modify Device Type" }];

const MODULES = ["deviceType", "company"] as const;
const idOf = (request: Request) => Number(new URL(request.url).searchParams.get("id"));

export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireModule(request, context, MODULES, "modify");
  if (auth.company.type !== "root") throw new Response("Forbidden", { status: 403 });
  return loadRecord(request, { list: "/deviceType" }, async (id) => ({ type: await getDeviceTypeDetails(getDb(context), auth, id) }));
}

export async function action({ request, context }: ActionFunctionArgs) {
  const auth = await requireModule(request, context, MODULES, "modify");
  return formAction(request, deviceTypeFormSchema, async (value) => {
    const r = await updateDeviceType(getDb(context), auth, idOf(request), value, nowMs());
    return redirectWithMessage({ request, context }, { to: "/deviceType", ns: "deviceTypes", message: r.message });
  });
}

export default function ModifyDeviceTypePage() {
  const { type } = useLoaderData<typeof loader>();
  const { t } = useTranslation("deviceTypes");
  return (
    <div className="grid gap-6">
      <PageHeader title={t("modifyTitle")} description={`${type.deviceType} (${type.deviceCode})`} back={{ to: "/deviceType", label: t("backToList") }} />
      <DeviceTypeForm initial={{ deviceCode: type.deviceCode, deviceType: type.deviceType }} submitLabel={t("save")} />
    </div>
  );
}
