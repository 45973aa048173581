import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { companyDeviceColumns } from "~/components/companies/device-columns";
import { ListPage } from "~/components/data-table/list-page";
import { tablePage } from "~/components/data-table/params";
import { listCompanyDevices } from "~/services/companies.server";
import { requireModule } from "~/utils/auth-guards.server";
import { getDb, nowMs } from "~/utils/db.server";
import { loadRecord } from "~/utils/record-from-url.server";

export const meta: MetaFunction = () => [{ title: "Company Devices" }];

/** /companyRelatedDevices?company_id=…: a company's devices, 25 per page; without an id, back to /company. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireModule(request, context, "company");
  return loadRecord(request, { list: "/company", param: "company_id" }, async (id) => {
    const { details, ...list } = await tablePage(request.url, { defaultSort: "serial", sortable: ["serial"] }, (_, { page }) =>
      listCompanyDevices(getDb(context), auth, id, { page }),
    );
    return { ...list, rows: details, today: new Date(nowMs()).toISOString().slice(0, 10) };
  });
}

export default function CompanyDevicesPage() {
  const { company, rows, total, params, today } = useLoaderData<typeof loader>();
  const { t, i18n } = useTranslation("companies");
  const columns = useMemo(() => companyDeviceColumns(t, today, i18n.language), [t, today, i18n.language]);
  return (
    <ListPage
      title={t("dev.title")}
      description={`${company.name} (${company.code}) - ${company.type.toUpperCase()}`}
      back={{ to: "/company", label: t("backToList") }}
      columns={columns}
      page={{ rows, total, params }}
      empty={t("empty")}
    />
  );
}
