import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { ListPage } from "~/components/data-table/list-page";
import { tablePage } from "~/components/data-table/params";
import { childCompanyColumns } from "~/components/lifecycle/child-company-columns";
import { LinkButton } from "~/components/ui/link-button";
import { CHILD_SORTS, listChildCompanies } from "~/services/device-stock.server";
import { requireModule } from "~/utils/auth-guards.server";
import { getDb } from "~/utils/db.server";
import { can, canRequestCompany, canUseVarPanel } from "~/utils/permissions";

export const meta: MetaFunction = () => [{ title: "VAR Panel" }];

/** /varPanel: the caller's child companies, 25 per page; a devices count opens the transfer screen for that child. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireModule(request, context, "var_panel");
  if (!canUseVarPanel(auth.permissions, auth.company.type)) throw new Response("Forbidden", { status: 403 });
  const page = await tablePage(request.url, { defaultSort: "name", sortable: Object.keys(CHILD_SORTS) }, (_, slice) => listChildCompanies(getDb(context), auth, slice));
  return {
    ...page,
    company: auth.company.name,
    type: auth.company.type,
    canRequest: canRequestCompany(auth.permissions, auth.company.type),
    canTransfer: can(auth.permissions, "var_panel", "modify"),
  };
}

export default function VarPanelPage() {
  const { rows, total, params, company, type, canRequest, canTransfer } = useLoaderData<typeof loader>();
  const { t } = useTranslation("lifecycle");
  const columns = useMemo(() => childCompanyColumns(t, canTransfer), [t, canTransfer]);
  return (
    <ListPage
      title={t("varPanel")}
      description={t(type === "root" ? "varPanelAboutRoot" : "varPanelAbout", { company })}
      caption={t("childCompanies")}
      actions={
        // Room for more reseller links (invoices) beside these.
        <nav aria-label={t("varPanel")} className="flex flex-wrap gap-2">
          <LinkButton to="/viewDeviceStock" variant="outline">
            {t("viewStock")}
          </LinkButton>
          {canRequest && <LinkButton to="/newCompanyRequest">{t("newCompanyRequest")}</LinkButton>}
        </nav>
      }
      columns={columns}
      page={{ rows, total, params }}
      empty={t("noChildren")}
    />
  );
}
