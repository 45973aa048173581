import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, useLoaderData, useNavigate, useSearchParams } from "@remix-run/react";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { companyColumns } from "~/components/companies/columns";
import { ListPage } from "~/components/data-table/list-page";
import { tablePage } from "~/components/data-table/params";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { LinkButton } from "~/components/ui/link-button";
import { COMPANY_SORTS, deleteCompany, listCompanies } from "~/services/companies.server";
import { requireModule } from "~/utils/auth-guards.server";
import { getDb, nowMs } from "~/utils/db.server";
import { can } from "~/utils/permissions";
import { rowAction, rowSchema } from "~/utils/row-action.server";

export const meta: MetaFunction = () => [{ title: "Company" }];

/** Extra buttons of the list (spec part 2 §2) whose pages exist. */
export const COMPANY_LIST_LINKS: { key: string; to: string }[] = [
  { key: "mailerConfig", to: "/companyMailerSetting" },
  { key: "viewRequests", to: "/viewCompanyRequests" },
];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireModule(request, context, "company");
  const url = new URL(request.url);
  const search = url.searchParams.get("q") ?? "";
  const page = await tablePage(url, { defaultSort: "name", sortable: Object.keys(COMPANY_SORTS) }, (_, slice) => listCompanies(getDb(context), auth, { ...slice, search }));
  return {
    ...page,
    search,
    can: {
      add: can(auth.permissions, "company", "add"),
      modify: can(auth.permissions, "company", "modify"),
      delete: can(auth.permissions, "company", "delete"),
    },
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const auth = await requireModule(request, context, "company", "delete");
  return rowAction(request, context, "companies", rowSchema, async ({ id }) => (await deleteCompany(getDb(context), auth, id, nowMs())).message);
}

export default function CompanyList() {
  const { rows, total, params, search, can } = useLoaderData<typeof loader>();
  const { t } = useTranslation("companies");
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const columns = useMemo(() => companyColumns(t, { canDelete: can.delete, canModify: can.modify }), [t, can.delete, can.modify]);
  return (
    <ListPage
      title={t("title")}
      actions={COMPANY_LIST_LINKS.map((l) => (
        <LinkButton key={l.key} to={l.to} variant="outline">
          {t(l.key)}
        </LinkButton>
      ))}
      add={can.add && { to: "/addCompany", label: t("addCompany") }}
      columns={columns}
      page={{ rows, total, params }}
      onRowClick={can.modify ? (c) => navigate(`/modifyCompany?id=${c.id}`) : undefined}
      empty={t("empty")}
    >
      <Form method="get" className="flex max-w-md items-center gap-2" role="search">
        {searchParams.get("sort") && <input type="hidden" name="sort" value={searchParams.get("sort")!} />}
        <Input name="q" defaultValue={search} placeholder={t("searchPlaceholder")} aria-label={t("search")} />
        <Button type="submit" variant="outline">
          {t("search")}
        </Button>
      </Form>
    </ListPage>
  );
}
