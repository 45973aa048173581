import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useActionData, useFetcher, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { LinkButton } from "~/components/ui/link-button";
import { PageHeader } from "~/components/ui/page-header";
import { WebhookEndpointForm } from "~/components/webhooks/endpoint-form";
import { CopyableSecret } from "~/components/copyable-secret";
import { webhookEndpointSchema } from "~/schemas/webhooks";
import { deleteWebhookEndpoint, getWebhookEndpoint, modifyWebhookEndpoint, rotateWebhookSecret } from "~/services/webhooks/endpoints.server";
import { companyZone, requireModule } from "~/utils/auth-guards.server";
import { getDb, nowMs } from "~/utils/db.server";
import { formAction, type FormReply } from "~/utils/form-action.server";
import { formatDateTime } from "~/utils/format";
import { can } from "~/utils/permissions";
import { idFromUrl, loadRecord } from "~/utils/record-from-url.server";
import { rowAction, rowSchema } from "~/utils/row-action.server";
import { redirectWithMessage } from "~/utils/toast.server";

export const meta: MetaFunction = () => [{ title: "Modify webhook endpoint" }];

const MODULE = "company_settings";

/** The page never carries the secret: it is fetched when asked for ("reveal"), by those who may modify. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireModule(request, context, MODULE, "modify");
  return loadRecord(request, { list: "/webhooks" }, async (id) => {
    const { secret: _secret, ...endpoint } = await getWebhookEndpoint(getDb(context), context.cloudflare.env, auth, id, nowMs());
    return { endpoint, zone: companyZone(auth), canDelete: can(auth.permissions, MODULE, "delete") };
  });
}

type ActionData = Partial<FormReply> & { secret?: string; rotated?: boolean };

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.formData();
  const intent = String(form.get("intent"));
  const auth = await requireModule(request, context, MODULE, intent === "delete" ? "delete" : "modify");
  const db = getDb(context);
  const env = context.cloudflare.env;
  const id = idFromUrl(request) ?? 0;
  const now = nowMs();
  switch (intent) {
    case "save":
      return formAction(
        request,
        webhookEndpointSchema,
        async (value) =>
          redirectWithMessage({ request, context }, { to: "/webhooks", ns: "webhooks", message: (await modifyWebhookEndpoint(db, env, auth, id, value, now)).message }),
        { formData: form },
      );
    case "reveal":
      return { secret: (await getWebhookEndpoint(db, env, auth, id, now)).secret ?? undefined } satisfies ActionData;
    case "rotate":
      return formAction(
        request,
        rowSchema,
        async (_, submission) => {
          const r = await rotateWebhookSecret(db, env, auth, id, now);
          return { result: submission.reply(), message: r.message, secret: r.secret, rotated: true } satisfies ActionData;
        },
        { formData: form },
      );
    case "delete":
      return rowAction(request, context, "webhooks", rowSchema, async () => ({ message: (await deleteWebhookEndpoint(db, auth, id, now)).message, to: "/webhooks" }), form);
    default:
      throw new Response("Unknown intent", { status: 400 });
  }
}

export default function ModifyWebhookPage() {
  const { endpoint, zone, canDelete } = useLoaderData<typeof loader>();
  const { t, i18n } = useTranslation("webhooks");
  const rotated = useActionData<ActionData>();
  const reveal = useFetcher<ActionData>();
  const shown = rotated?.rotated ? rotated.secret : reveal.data?.secret;
  return (
    <div className="grid gap-6">
      <PageHeader
        title={t("modifyTitle")}
        description={<span className="break-all">{endpoint.url}</span>}
        back={{ to: "/webhooks", label: t("backToList") }}
        actions={
          <div className="flex flex-wrap gap-2">
            <LinkButton variant="outline" to={`/webhookDeliveries?id=${endpoint.id}`}>
              {t("log")}
            </LinkButton>
            {canDelete && (
              <ConfirmDialog
                trigger={<Button variant="outline">{t("deleteEndpoint")}</Button>}
                title={t("delete.title")}
                description={t("delete.description", { url: endpoint.url })}
                fields={{ intent: "delete", id: endpoint.id }}
                confirmLabel={t("delete.confirm")}
                cancelLabel={t("cancel")}
                destructive
              />
            )}
          </div>
        }
      />
      <WebhookEndpointForm key={endpoint.id} initial={endpoint} submitLabel={t("save")} />
      <Card className="max-w-3xl">
        <CardHeader>
          <CardTitle>{t("secretTitle")}</CardTitle>
          <CardDescription>{t("secretHint")}</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-3">
          {rotated?.rotated && (
            <Alert variant="info">
              <AlertDescription>{t(rotated.message ?? "Signing secret rotated")}</AlertDescription>
            </Alert>
          )}
          {endpoint.previousSecretUntil && (
            <p className="text-sm text-muted-foreground">{t("previousUntil", { at: formatDateTime(endpoint.previousSecretUntil, zone, i18n.language) })}</p>
          )}
          {shown ? (
            <CopyableSecret value={shown} testId="webhook-secret" label={t("secretLabel")} text={{ copy: t("copy"), copied: t("copied"), copyFailed: t("copyFailed") }} />
          ) : (
            <reveal.Form method="post">
              <input type="hidden" name="intent" value="reveal" />
              <Button type="submit" variant="outline" loading={reveal.state !== "idle"}>
                {t("reveal")}
              </Button>
            </reveal.Form>
          )}
          <div>
            <ConfirmDialog
              trigger={<Button variant="outline">{t("rotate")}</Button>}
              title={t("rotateTitle")}
              description={t("rotateDescription")}
              fields={{ intent: "rotate", id: endpoint.id }}
              confirmLabel={t("rotateConfirm")}
              cancelLabel={t("cancel")}
            />
          </div>
        </CardContent>
      </Card>
    </div>
  );
}
