import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { ListPage } from "~/components/data-table/list-page";
import { tablePage } from "~/components/data-table/params";
import { webhookColumns } from "~/components/webhooks/columns";
import { deleteWebhookEndpoint, listWebhookEndpoints, WEBHOOK_ENDPOINT_SORTS } from "~/services/webhooks/endpoints.server";
import { companyZone, requireModule } from "~/utils/auth-guards.server";
import { getDb, nowMs } from "~/utils/db.server";
import { can } from "~/utils/permissions";
import { rowAction, rowSchema } from "~/utils/row-action.server";

export const meta: MetaFunction = () => [{ title: "Webhooks" }];

/** Webhook endpoints (decision 0078): the company_settings module's, like the admin API. */
const MODULE = "company_settings";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireModule(request, context, MODULE);
  const page = await tablePage(request.url, { defaultSort: "-createdAt", sortable: Object.keys(WEBHOOK_ENDPOINT_SORTS) }, (_, slice) =>
    listWebhookEndpoints(getDb(context), auth, slice),
  );
  return {
    ...page,
    zone: companyZone(auth),
    can: { add: can(auth.permissions, MODULE, "add"), modify: can(auth.permissions, MODULE, "modify"), delete: can(auth.permissions, MODULE, "delete") },
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const auth = await requireModule(request, context, MODULE, "delete");
  return rowAction(request, context, "webhooks", rowSchema, async ({ id }) => (await deleteWebhookEndpoint(getDb(context), auth, id, nowMs())).message);
}

export default function WebhooksPage() {
  const { rows, total, params, zone, can } = useLoaderData<typeof loader>();
  const { t } = useTranslation("webhooks");
  const columns = useMemo(() => webhookColumns(t, { zone, modify: can.modify, delete: can.delete }), [t, zone, can.modify, can.delete]);
  return (
    <ListPage
      title={t("title")}
      description={t("description")}
      add={can.add && { to: "/addWebhook", label: t("add") }}
      back={{ to: "/companySettings", label: t("settings:title") }}
      columns={columns}
      page={{ rows, total, params }}
      empty={t("empty")}
      emptyHint={t("emptyHint")}
    />
  );
}
