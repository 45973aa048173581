import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { apiKeyColumns, type ApiKeyListRow } from "~/components/api-keys/columns";
import { ListPage } from "~/components/data-table/list-page";
import { tablePage } from "~/components/data-table/params";
import { API_KEY_SORTS, listApiKeys, revokeApiKey } from "~/services/api-keys.server";
import { companyZone, requireModule } from "~/utils/auth-guards.server";
import { getDb, nowMs } from "~/utils/db.server";
import { can } from "~/utils/permissions";
import { rowAction, rowSchema } from "~/utils/row-action.server";

export const meta: MetaFunction = () => [{ title: "API Keys" }];

const MODULE = "company_settings";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireModule(request, context, MODULE);
  const now = nowMs();
  const page = await tablePage(request.url, { defaultSort: "createdAt", sortable: Object.keys(API_KEY_SORTS) }, async (_, slice) => {
    const { rows, total } = await listApiKeys(getDb(context), auth, slice);
    const status = (r: (typeof rows)[number]): ApiKeyListRow["status"] => (r.revokedAt != null ? "revoked" : r.expiresAt != null && r.expiresAt <= now ? "expired" : "active");
    return { rows: rows.map((r) => ({ ...r, status: status(r) })), total };
  });
  return { ...page, zone: companyZone(auth), can: { add: can(auth.permissions, MODULE, "add"), revoke: can(auth.permissions, MODULE, "delete") } };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const auth = await requireModule(request, context, MODULE, "delete");
  return rowAction(request, context, "apiKeys", rowSchema, async ({ id }) => (await revokeApiKey(getDb(context), auth, id, nowMs())).message);
}

export default function ApiKeysPage() {
  const { rows, total, params, zone, can } = useLoaderData<typeof loader>();
  const { t } = useTranslation("apiKeys");
  const columns = useMemo(() => apiKeyColumns(t, { zone, revoke: can.revoke }), [t, zone, can.revoke]);
  return (
    <ListPage
      title={t("title")}
      description={t("description")}
      add={can.add && { to: "/addApiKey", label: t("add") }}
      columns={columns}
      page={{ rows, total, params }}
      empty={t("empty")}
    />
  );
}
