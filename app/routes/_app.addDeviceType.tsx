import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useTranslation } from "react-i18next";
import { DeviceTypeForm } from "~/components/device-types/device-type-form";
import { PageHeader } from "~/components/ui/page-header";
import { addDeviceType } from "~/services/device-types.server";
import { requireModule } from "~/utils/auth-guards.server";
import { getDb, nowMs } from "~/utils/db.server";
import { redirectWithMessage } from "~/utils/toast.server";
import { formAction } from "~/utils/form-action.server";
import { deviceTypeFormSchema } from "~/schemas/device-types";

export const meta: MetaFunction = () => [{ title: "Add Device Type" }];

const MODULES = ["deviceType", "company"] as const;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireModule(request, context, MODULES, "add");
  if (auth.company.type !== "root") throw new Response("Forbidden", { status: 403 });
  return null;
}

export async function action({ request, context }: ActionFunctionArgs) {
  const auth = await requireModule(request, context, MODULES, "add");
  return formAction(request, deviceTypeFormSchema, async (value) => {
    const r = await addDeviceType(getDb(context), auth, value, nowMs());
    return redirectWithMessage({ request, context }, { to: "/deviceType", ns: "deviceTypes", message: r.message });
  });
}

export default function AddDeviceTypePage() {
  const { t } = useTranslation("deviceTypes");
  return (
    <div className="grid gap-6">
      <PageHeader title={t("addTitle")} back={{ to: "/deviceType", label: t("backToList") }} />
      <DeviceTypeForm initial={{ deviceCode: "", deviceType: "" }} submitLabel={t("add")} />
    </div>
  );
}
