import type { ReactNode } from "react";
import { useSearchParams } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { PageHeader } from "~/components/ui/page-header";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "~/components/ui/tabs";

/** The support pages' two tabs, tickets and FAQs; `?tab=faqs` opens the FAQs, so the tab survives a reload. */
export function SupportTabs({ title, tickets, faqs }: { title: string; tickets: ReactNode; faqs: ReactNode | null }) {
  const { t } = useTranslation("support");
  const [search, setSearch] = useSearchParams();
  const tab = faqs && search.get("tab") === "faqs" ? "faqs" : "tickets";
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
      <PageHeader title={title} className="pb-0" />
      <Tabs value={tab} onValueChange={choose}>
        <TabsList aria-label={title}>
          <TabsTrigger value="tickets">{t("tickets")}</TabsTrigger>
          {faqs && <TabsTrigger value="faqs">{t("faqs")}</TabsTrigger>}
        </TabsList>
        <TabsContent value="tickets">{tickets}</TabsContent>
        {faqs && <TabsContent value="faqs">{faqs}</TabsContent>}
      </Tabs>
    </div>
  );
}
