import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { ListPage } from "~/components/data-table/list-page";
import { tablePage } from "~/components/data-table/params";
import { stockColumns } from "~/components/lifecycle/stock-columns";
import { TransferBoardsDialog } from "~/components/lifecycle/transfer-boards-dialog";
import { getCompanyStock, listChildCompanies } from "~/services/device-stock.server";
import { requireModule } from "~/utils/auth-guards.server";
import { getDb } from "~/utils/db.server";
import { can } from "~/utils/permissions";

export const meta: MetaFunction = () => [{ title: "Device Stock" }];

/** /viewDeviceStock: the caller's stock boards (serial number and board type), 25 per page, and the way to transfer them. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireModule(request, context, "var_panel");
  const db = getDb(context);
  const canTransfer = can(auth.permissions, "var_panel", "modify");
  const [page, children] = await Promise.all([
    tablePage(request.url, { defaultSort: "serial", sortable: ["serial"] }, (_, { page }) => getCompanyStock(db, auth, { page })),
    canTransfer ? listChildCompanies(db, auth) : null,
  ]);
  // The transfer page checks the chosen company again.
  const customers = children?.rows.map((c) => ({ id: c.id, name: c.name, code: c.code })) ?? null;
  return { ...page, customers };
}

export default function ViewDeviceStockPage() {
  const { company, rows, total, params, customers } = useLoaderData<typeof loader>();
  const { t } = useTranslation("lifecycle");
  const columns = useMemo(() => stockColumns(t), [t]);
  return (
    <ListPage
      title={t("stockTitle")}
      description={`${company.name} (${company.code})`}
      back={{ to: "/varPanel", label: t("backToCompanies") }}
      actions={customers && total > 0 && <TransferBoardsDialog customers={customers} />}
      columns={columns}
      page={{ rows, total, params }}
      empty={t("noStock")}
    />
  );
}
