import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { CompanyCellCard } from "~/components/companies/company-cell-card";
import { CompanyForm, type CompanyFormValues } from "~/components/companies/company-form";
import { PageHeader } from "~/components/ui/page-header";
import { listCells, moveCompanyToCell } from "~/services/cells.server";
import { COMPANY_MSG, getCompanyDetails, updateCompany } from "~/services/companies.server";
import { requireModule } from "~/utils/auth-guards.server";
import { can } from "~/utils/permissions";
import { getDb, nowMs } from "~/utils/db.server";
import { loadRecord } from "~/utils/record-from-url.server";
import { redirectWithMessage } from "~/utils/toast.server";
import { companyCellSchema } from "~/schemas/cells";
import { companyUpdateSchema } from "~/schemas/companies";
import { formAction, type FormReply } from "~/utils/form-action.server";

export const meta: MetaFunction = () => [{ title: "Modify a Company" }];

const idOf = (request: Request) => Number(new URL(request.url).searchParams.get("id"));

export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireModule(request, context, "company", "modify");
  const db = getDb(context);
  // Only the platform administrator sees and moves a company's cell.
  const cells = auth.company.type === "root" && can(auth.permissions, "company", "modify") ? (await listCells(db, auth)).rows : null;
  // Without an id (or with one outside the caller's view) the page goes back to the list.
  return loadRecord(request, { list: "/company" }, async (id) => ({ company: await getCompanyDetails(db, auth, id), cells }));
}

export async function action({ request, context }: ActionFunctionArgs) {
  const auth = await requireModule(request, context, "company", "modify");
  const formData = await request.formData();
  formData.set("id", String(idOf(request)));
  if (formData.get("intent") === "cell") {
    // Posted by the confirmation, which has no fields to show a refusal on: it comes back as a toast.
    const page = { request, context };
    return formAction(
      request,
      companyCellSchema,
      async (value) => redirectWithMessage(page, { ns: "companies", message: (await moveCompanyToCell(getDb(context), auth, value, nowMs())).message }),
      { formData, onRefusal: (message) => redirectWithMessage(page, { ns: "companies", message, type: "error" }) },
    );
  }
  return formAction(
    request,
    companyUpdateSchema,
    async (value, submission) => {
      const r = await updateCompany(getDb(context), auth, value, nowMs());
      // Spec §4: back to the list when the message is "Company modified successfully"; any other answer stays on the form.
      if (r.message === COMPANY_MSG.modified) return redirectWithMessage({ request, context }, { to: "/company", ns: "companies", message: r.message });
      return { result: submission.reply({ formErrors: [r.message] }) } satisfies FormReply;
    },
    { formData },
  );
}

export default function ModifyCompanyPage() {
  const { company, cells } = useLoaderData<typeof loader>();
  const { t } = useTranslation("companies");
  const initial = useMemo<CompanyFormValues>(
    () => ({
      companyType: company.type,
      parentCompanyId: company.parent ? `${company.parent.name} (${company.parent.code}) - ${company.parent.type.toUpperCase()}` : "",
      discountPercentage: String(company.discountPercentage),
      nextBillingDate: company.nextBillingDate ?? "",
      companyName: company.name,
      POCFirstName: company.pocFirstName,
      POCLastName: company.pocLastName,
      POCEmail: company.pocEmail,
      POCCountryCode: company.pocCountryCode,
      POCPhoneNumber: company.pocPhoneNumber,
      companyId: company.code,
      isDeactive: company.isDeactive,
    }),
    [company],
  );
  return (
    <div className="grid gap-6">
      <PageHeader title={t("modifyTitle")} description={`${company.name} (${company.code})`} back={{ to: "/company", label: t("backToList") }} />
      <CompanyForm mode="modify" initial={initial} parents={[]} id={company.id} />
      {cells && <CompanyCellCard companyId={company.id} companyName={company.name} current={company.cell} cells={cells} />}
    </div>
  );
}
