import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData, useNavigation } from "@remix-run/react";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { requestColumns } from "~/components/companies/request-columns";
import { ListPage } from "~/components/data-table/list-page";
import { tablePage } from "~/components/data-table/params";
import { getFixedT, getLanguage } from "~/i18n/i18next.server";
import { translateMessage } from "~/i18n/messages";
import { acceptCompanyRequest, listCompanyRequests, rejectCompanyRequest } from "~/services/company-requests.server";
import { deliverQueued } from "~/services/deliver-queued.server";
import { requireModule } from "~/utils/auth-guards.server";
import { getDb, nowMs } from "~/utils/db.server";
import { ServiceError } from "~/utils/errors.server";
import { can } from "~/utils/permissions";
import { rowAction, rowSchema } from "~/utils/row-action.server";

export const meta: MetaFunction = () => [{ title: "Company Requests" }];

const MODULES = ["company", "users"] as const;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireModule(request, context, MODULES);
  try {
    const page = await tablePage(request.url, { defaultSort: "createdAt", sortable: ["createdAt"] }, (_, { page }) => listCompanyRequests(getDb(context), auth, { page }));
    const decide = auth.company.type === "root" && can(auth.permissions, "company", "add");
    return { ...page, decide, companyList: can(auth.permissions, "company") };
  } catch (e) {
    if (e instanceof ServiceError && e.status === 403) throw new Response("Forbidden", { status: 403 });
    throw e;
  }
}

export async function action({ request, context }: ActionFunctionArgs) {
  const auth = await requireModule(request, context, "company", "add");
  const env = context.cloudflare.env;
  const t = await getFixedT(await getLanguage(request), "requests");
  return rowAction(request, context, "requests", rowSchema, async ({ id, intent }) => {
    const now = nowMs();
    const r =
      intent === "accept"
        ? await acceptCompanyRequest(getDb(context), auth, id, { origin: new URL(request.url).origin, now })
        : await rejectCompanyRequest(getDb(context), auth, id, now);
    deliverQueued(env, (p) => context.cloudflare.ctx.waitUntil(p));
    return "companyId" in r ? `${translateMessage(t, r.message, "requests")} (${r.companyId})` : r.message;
  });
}

export default function CompanyRequestsPage() {
  const { rows, total, params, decide, companyList } = useLoaderData<typeof loader>();
  const { t, i18n } = useTranslation("requests");
  const busy = useNavigation().state !== "idle";
  const columns = useMemo(() => requestColumns(t, i18n.language, decide, busy), [t, i18n.language, decide, busy]);
  return <ListPage title={t("title")} back={companyList && { to: "/company", label: t("backToCompanies") }} columns={columns} page={{ rows, total, params }} empty={t("empty")} />;
}
