import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { FaqList } from "~/components/support/faq-list";
import { SupportTabs } from "~/components/support/support-tabs";
import { ticketsPage } from "~/routes/support-ticket-list.server";
import { TicketsTable } from "~/components/support/tickets-table";
import { getLanguage } from "~/i18n/i18next.server";
import { listFaqs } from "~/services/faqs.server";
import { requireModule } from "~/utils/auth-guards.server";
import { getDb } from "~/utils/db.server";
import { can } from "~/utils/permissions";

export const meta: MetaFunction = () => [{ title: "Support" }];

/** Two tabs: the company's tickets (25 a page) and the FAQs in the reader's language; `?tab=faqs` opens the FAQs. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireModule(request, context, "support");
  const db = getDb(context);
  const [tickets, faqs] = await Promise.all([ticketsPage(db, auth, request.url, ["number", "company", "user", "createdAt"]), listFaqs(db, auth, await getLanguage(request))]);
  // A platform user holding both modules sees every company's tickets here too, so with their company.
  return { ...tickets, faqs, withCompany: can(auth.permissions, "company") };
}

export default function SupportPage() {
  const { rows, total, params, timeZone, faqs, withCompany } = useLoaderData<typeof loader>();
  const { t } = useTranslation("support");
  return (
    <SupportTabs
      title={t("title")}
      tickets={<TicketsTable rows={rows} total={total} params={params} timeZone={timeZone} withCompany={withCompany} />}
      faqs={<FaqList faqs={faqs} />}
    />
  );
}
