import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useActionData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Alert, AlertDescription, AlertTitle } from "~/components/ui/alert";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { LinkButton } from "~/components/ui/link-button";
import { PageHeader } from "~/components/ui/page-header";
import { WebhookEndpointForm } from "~/components/webhooks/endpoint-form";
import { CopyableSecret } from "~/components/copyable-secret";
import { webhookEndpointSchema } from "~/schemas/webhooks";
import { addWebhookEndpoint } from "~/services/webhooks/endpoints.server";
import { requireModule } from "~/utils/auth-guards.server";
import { getDb, nowMs } from "~/utils/db.server";
import { formAction, type FormReply } from "~/utils/form-action.server";

export const meta: MetaFunction = () => [{ title: "Add webhook endpoint" }];

const MODULE = "company_settings";

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireModule(request, context, MODULE, "add");
  return null;
}

type ActionData = Partial<FormReply> & { created?: { id: number; secret: string } };

/** The form stays: the answer carries the signing secret, shown here in full. */
export async function action({ request, context }: ActionFunctionArgs) {
  const auth = await requireModule(request, context, MODULE, "add");
  return formAction(request, webhookEndpointSchema, async (value, submission) => {
    const r = await addWebhookEndpoint(getDb(context), context.cloudflare.env, auth, value, nowMs());
    return { result: submission.reply({ resetForm: true }), created: { id: r.id, secret: r.secret } };
  });
}

export default function AddWebhookPage() {
  const created = useActionData<ActionData>()?.created;
  const { t } = useTranslation("webhooks");
  return (
    <div className="grid gap-6">
      <PageHeader title={t("addTitle")} back={{ to: "/webhooks", label: t("backToList") }} />
      {created ? (
        <Card data-testid="webhook-created">
          <CardHeader>
            <CardTitle>{t("createdTitle")}</CardTitle>
          </CardHeader>
          <CardContent className="grid gap-3">
            <Alert variant="warning">
              <AlertTitle>{t("once")}</AlertTitle>
              <AlertDescription>{t("onceHint")}</AlertDescription>
            </Alert>
            <CopyableSecret value={created.secret} testId="webhook-secret" label={t("secretLabel")} text={{ copy: t("copy"), copied: t("copied"), copyFailed: t("copyFailed") }} />
            <div className="flex flex-wrap gap-2">
              <LinkButton to={`/webhookDeliveries?id=${created.id}`} variant="outline">
                {t("log")}
              </LinkButton>
              <LinkButton to="/webhooks">{t("done")}</LinkButton>
            </div>
          </CardContent>
        </Card>
      ) : (
        <WebhookEndpointForm initial={{ url: "", description: "", eventTypes: [], enabled: true }} submitLabel={t("create")} />
      )}
    </div>
  );
}
