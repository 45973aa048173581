import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { ListPage } from "~/components/data-table/list-page";
import { tablePage } from "~/components/data-table/params";
import { supportGrantColumns } from "~/components/support-access/columns";
import { listSupportGrants, revokeSupportAccess, supportGrantees } from "~/services/support-access.server";
import { companyZone, requireModule } from "~/utils/auth-guards.server";
import { getDb, nowMs } from "~/utils/db.server";
import { can } from "~/utils/permissions";
import { rowAction, rowSchema } from "~/utils/row-action.server";

export const meta: MetaFunction = () => [{ title: "Support Access" }];

const MODULE = "company_settings";

/** The company's support grants (decision 0093), newest first; in force ones can be revoked. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireModule(request, context, MODULE);
  const db = getDb(context);
  const now = nowMs();
  const page = await tablePage(request.url, { defaultSort: "", sortable: [] }, async (_, slice) => {
    const rows = await listSupportGrants(db, auth, now);
    return { rows: rows.slice(slice.page.offset, slice.page.offset + slice.page.limit), total: rows.length };
  });
  const canGrant = can(auth.permissions, MODULE, "add") && !auth.support && (await supportGrantees(db, auth)).length > 0;
  return { ...page, zone: companyZone(auth), can: { grant: canGrant, revoke: can(auth.permissions, MODULE, "delete") && !auth.support } };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const auth = await requireModule(request, context, MODULE, "delete");
  return rowAction(request, context, "supportAccess", rowSchema, async ({ id }) => (await revokeSupportAccess(getDb(context), auth, id, nowMs())).message);
}

export default function SupportAccessPage() {
  const { rows, total, params, zone, can } = useLoaderData<typeof loader>();
  const { t } = useTranslation("supportAccess");
  const columns = useMemo(() => supportGrantColumns(t, { zone, revoke: can.revoke }), [t, zone, can.revoke]);
  return (
    <ListPage
      title={t("title")}
      description={t("description")}
      add={can.grant && { to: "/addSupportAccess", label: t("add") }}
      columns={columns}
      page={{ rows, total, params }}
      empty={t("empty")}
    />
  );
}
