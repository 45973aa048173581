import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { faqAction } from "~/routes/faq-form-action.server";
import type { FormReply } from "~/utils/form-action.server";
import { FaqForm } from "~/components/support/faq-form";
import { PageHeader } from "~/components/ui/page-header";
import { canEditFaqs, getFaq, updateFaq } from "~/services/faqs.server";
import { requireModule } from "~/utils/auth-guards.server";
import { getDb, nowMs } from "~/utils/db.server";
import { loadRecord } from "~/utils/record-from-url.server";

export const meta: MetaFunction = () => [{ title: "Modify FAQ" }];

const idOf = (request: Request) => Number(new URL(request.url).searchParams.get("id"));

/** Without an id, or with an unknown one, back to the FAQ list. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireModule(request, context, "company", "modify");
  if (!canEditFaqs(auth, "modify")) throw new Response("Forbidden", { status: 403 });
  return loadRecord(request, { list: "/adminSupport?tab=faqs" }, async (id) => ({ faq: await getFaq(getDb(context), auth, id) }));
}

export async function action({ request, context }: ActionFunctionArgs) {
  const auth = await requireModule(request, context, "company", "modify");
  return faqAction(request, context, (value) => updateFaq(getDb(context), auth, idOf(request), value, nowMs()));
}

export default function ModifyFaqPage() {
  const { faq } = useLoaderData<typeof loader>();
  const actionData = useActionData<FormReply>();
  const { t } = useTranslation("support");
  return (
    <div className="grid gap-6">
      <PageHeader title={t("modifyFaq")} />
      <FaqForm key={faq.id} initial={{ language: faq.language, question: faq.question, answer: faq.answer }} lastResult={actionData?.result} submitLabel={t("save")} />
    </div>
  );
}
