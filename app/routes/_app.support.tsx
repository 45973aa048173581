import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData, useSearchParams } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { FaqList } from "~/components/support/faq-list";
import { ticketsPage } from "~/utils/support-tickets-data.server";
import { TicketsTable } from "~/components/support/tickets-table";
import { PageHeader } from "~/components/ui/page-header";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "~/components/ui/tabs";
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
  const [search, setSearch] = useSearchParams();
  const tab = search.get("tab") === "faqs" ? "faqs" : "tickets";
  const choose = (value: string) =>
    setSearch(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (value === "faqs") next.set("tab", "faqs");
        else next.delete("tab");
        return next;
      },
      { preventScrollReset: true, replace: true },
    );
  return (
    <div className="grid gap-4">
      <PageHeader title={t("title")} className="pb-0" />
      <Tabs value={tab} onValueChange={choose}>
        <TabsList aria-label={t("title")}>
          <TabsTrigger value="tickets">{t("tickets")}</TabsTrigger>
          <TabsTrigger value="faqs">{t("faqs")}</TabsTrigger>
        </TabsList>
        <TabsContent value="tickets">
          <TicketsTable rows={rows} total={total} params={params} timeZone={timeZone} withCompany={withCompany} />
        </TabsContent>
        <TabsContent value="faqs">
          <FaqList faqs={faqs} />
        </TabsContent>
      </Tabs>
    </div>
  );
}
