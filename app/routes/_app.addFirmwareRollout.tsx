import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { RolloutForm } from "~/components/ota/rollout-form";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { PageHeader } from "~/components/ui/page-header";
import { ROLLOUT_MSG, startRolloutSchema } from "~/schemas/firmware-rollouts";
import { rolloutReleases, startRollout } from "~/services/firmware-rollouts.server";
import { requireModule } from "~/utils/auth-guards.server";
import { getDb, nowMs } from "~/utils/db.server";
import { formAction } from "~/utils/form-action.server";
import { redirectWithMessage } from "~/utils/toast.server";

export const meta: MetaFunction = () => [{ title: "Start a Firmware Rollout" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireModule(request, context, "company", "modify");
  const releaseId = Number(new URL(request.url).searchParams.get("release")) || undefined;
  return { releases: await rolloutReleases(getDb(context), auth), releaseId };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const auth = await requireModule(request, context, "company", "modify");
  return formAction(request, startRolloutSchema, async (value) => {
    await startRollout(getDb(context), auth, value, nowMs());
    return redirectWithMessage({ request, context }, { to: "/firmwareRollouts", ns: "ota", message: ROLLOUT_MSG.started });
  });
}

export default function AddFirmwareRolloutPage() {
  const { releases, releaseId } = useLoaderData<typeof loader>();
  const { t } = useTranslation("ota");
  return (
    <div className="grid gap-6">
      <PageHeader title={t("addRolloutTitle")} description={t("addRolloutDescription")} back={{ to: "/firmwareRollouts", label: t("backToRollouts") }} />
      {releases.length === 0 ? (
        <Alert>
          <AlertDescription>{t("noReleases")}</AlertDescription>
        </Alert>
      ) : (
        <RolloutForm releases={releases} releaseId={releaseId} />
      )}
    </div>
  );
}
