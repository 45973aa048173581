import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { ListPage } from "~/components/data-table/list-page";
import { tablePage } from "~/components/data-table/params";
import { stockColumns } from "~/components/lifecycle/stock-columns";
import { getCompanyStock } from "~/services/device-stock.server";
import { requireModule } from "~/utils/auth-guards.server";
import { getDb } from "~/utils/db.server";

export const meta: MetaFunction = () => [{ title: "Device Stock" }];

/** /viewDeviceStock: the caller's stock boards (serial number and board type), 25 per page. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireModule(request, context, "var_panel");
  return tablePage(request.url, { defaultSort: "serial", sortable: ["serial"] }, (_, { page }) => getCompanyStock(getDb(context), auth, { page }));
}

export default function ViewDeviceStockPage() {
  const { company, rows, total, params } = useLoaderData<typeof loader>();
  const { t } = useTranslation("lifecycle");
  const columns = useMemo(() => stockColumns(t), [t]);
  return (
    <ListPage
      title={t("stockTitle")}
      description={`${company.name} (${company.code})`}
      back={{ to: "/varPanel", label: t("backToCompanies") }}
      columns={columns}
      page={{ rows, total, params }}
      empty={t("noStock")}
    />
  );
}
