import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { FaqEditor } from "~/components/support/faq-editor";
import { SupportTabs } from "~/components/support/support-tabs";
import { ticketsPage } from "~/routes/support-ticket-list.server";
import { TicketsTable } from "~/components/support/tickets-table";
import { getFixedT, getLanguage } from "~/i18n/i18next.server";
import { translateMessage } from "~/i18n/messages";
import { canEditFaqs, deleteFaq, listFaqsForEditing, moveFaq, type FaqLanguage } from "~/services/faqs.server";
import { requireModule } from "~/utils/auth-guards.server";
import { getDb, nowMs } from "~/utils/db.server";
import { ServiceError } from "~/utils/errors.server";
import { redirectWithToast } from "~/utils/toast.server";

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

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.formData();
  const intent = form.get("intent");
  const auth = await requireModule(request, context, "company", intent === "delete" ? "delete" : "modify");
  const t = await getFixedT(await getLanguage(request), "support");
  const back = new URL(request.url);
  const env = context.cloudflare.env;
  const db = getDb(context);
  try {
    const r =
      intent === "delete" ? await deleteFaq(db, auth, Number(form.get("id")), nowMs()) : await moveFaq(db, auth, { id: form.get("id"), direction: form.get("direction") }, nowMs());
    return redirectWithToast(back.pathname + back.search, { type: "success", message: translateMessage(t, r.message, "support") }, env);
  } catch (e) {
    if (!(e instanceof ServiceError)) throw e;
    return redirectWithToast(back.pathname + back.search, { type: "error", message: translateMessage(t, e.message, "support") }, env);
  }
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
