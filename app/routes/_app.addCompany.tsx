import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { CompanyForm, emptyCompany } from "~/components/companies/company-form";
import { PageHeader } from "~/components/ui/page-header";
import { addCompany, freeCompanyCode, listParentOptions } from "~/services/companies.server";
import { deliverQueued } from "~/services/deliver-queued.server";
import { timeZoneOptions } from "~/services/time-zones.server";
import { requireModule } from "~/utils/auth-guards.server";
import { getDb, nowMs } from "~/utils/db.server";
import { redirectWithMessage } from "~/utils/toast.server";
import { companyCreateSchema } from "~/schemas/companies";
import { formAction } from "~/utils/form-action.server";
import { publicOrigin } from "~/utils/origin.server";

export const meta: MetaFunction = () => [{ title: "Create a Company" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireModule(request, context, "company", "add");
  const db = getDb(context);
  const [parents, code, zones] = await Promise.all([listParentOptions(db, auth), freeCompanyCode(db, auth), timeZoneOptions(db)]);
  return { parents, code, zones: zones.map((z) => ({ name: z.name, label: z.label })) };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const auth = await requireModule(request, context, "company", "add");
  return formAction(request, companyCreateSchema, async (value) => {
    const r = await addCompany(getDb(context), auth, value, { origin: publicOrigin(context.cloudflare.env, request), now: nowMs() });
    deliverQueued(context.cloudflare.env, (p) => context.cloudflare.ctx.waitUntil(p));
    return redirectWithMessage({ request, context }, { to: "/company", ns: "companies", message: r.message });
  });
}

export default function AddCompanyPage() {
  const { parents, code, zones } = useLoaderData<typeof loader>();
  const { t } = useTranslation("companies");
  const initial = useMemo(() => emptyCompany(code), [code]);
  return (
    <div className="grid gap-6">
      <PageHeader title={t("addTitle")} back={{ to: "/company", label: t("backToList") }} />
      <CompanyForm mode="add" initial={initial} parents={parents} zones={zones} />
    </div>
  );
}
