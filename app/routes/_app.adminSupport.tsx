import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { FaqEditor } from "~/components/support/faq-editor";
import { SupportTabs } from "~/components/support/support-tabs";
import { ticketsPage } from "~/routes/support-ticket-list.server";
import { TicketsTable } from "~/components/support/tickets-table";
import { canEditFaqs, deleteFaq, listFaqsForEditing, moveFaq, type FaqLanguage } from "~/services/faqs.server";
import { requireModule } from "~/utils/auth-guards.server";
import { getDb, nowMs } from "~/utils/db.server";
import { rowAction, rowSchema } from "~/utils/row-action.server";

export const meta: MetaFunction = () => [{ title: "Support" }];

const faqLanguageOf = (url: URL): FaqLanguage => (url.searchParams.get("faqLanguage") === "es" ? "es" : "en");

/** The platform's support: every overseen company's tickets with their company, and (root) the FAQ editor. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireModule(request, context, "company");
  const db = getDb(context);
  const language = faqLanguageOf(new URL(request.url));
  const editor = canEditFaqs(auth, "view");
  const [tickets, faqs] = await Promise.all([ticketsPage(db, auth, request.url, ["number", "company", "user", "createdAt"]), editor ? listFaqsForEditing(db, auth, language) : []]);
  return { ...tickets, faqs, language, editor, can: { add: canEditFaqs(auth, "add"), modify: canEditFaqs(auth, "modify"), delete: canEditFaqs(auth, "delete") } };
}

/** A FAQ row's buttons: delete, or move up or down (the service checks the direction). */
const faqRowSchema = rowSchema.extend({ direction: z.string().max(8).optional() });

export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await request.clone().formData();
  const intent = formData.get("intent");
  const auth = await requireModule(request, context, "company", intent === "delete" ? "delete" : "modify");
  const db = getDb(context);
  return rowAction(request, context, "support", faqRowSchema, async ({ id, direction }) =>
    intent === "delete" ? (await deleteFaq(db, auth, id, nowMs())).message : (await moveFaq(db, auth, { id, direction }, nowMs())).message,
  );
}

export default function AdminSupportPage() {
  const { rows, total, params, timeZone, faqs, language, editor, can } = useLoaderData<typeof loader>();
  const { t } = useTranslation("support");
  return (
    <SupportTabs
      title={t("adminTitle")}
      tickets={<TicketsTable rows={rows} total={total} params={params} timeZone={timeZone} withCompany />}
      faqs={editor ? <FaqEditor faqs={faqs} language={language} can={can} /> : null}
    />
  );
}
