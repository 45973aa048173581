import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { faqAction, type FaqActionData } from "~/routes/faq-form-action.server";
import { FaqForm } from "~/components/support/faq-form";
import { PageHeader } from "~/components/ui/page-header";
import { canEditFaqs, getFaq, updateFaq } from "~/services/faqs.server";
import { requireModule } from "~/utils/auth-guards.server";
import { getDb, nowMs } from "~/utils/db.server";
import { ServiceError } from "~/utils/errors.server";

export const meta: MetaFunction = () => [{ title: "Modify FAQ" }];

const idOf = (request: Request) => Number(new URL(request.url).searchParams.get("id"));

/** Without an id, or with an unknown one, back to the FAQ list. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireModule(request, context, "company", "modify");
  if (!canEditFaqs(auth, "modify")) throw new Response("Forbidden", { status: 403 });
  try {
    return { faq: await getFaq(getDb(context), auth, idOf(request)) };
  } catch (e) {
    if (e instanceof ServiceError && e.status === 404) throw redirect("/adminSupport?tab=faqs");
    throw e;
  }
}

export async function action({ request, context }: ActionFunctionArgs) {
  const auth = await requireModule(request, context, "company", "modify");
  return faqAction(request, context.cloudflare.env, auth, (value) => updateFaq(getDb(context), auth, idOf(request), value, nowMs()));
}

export default function ModifyFaqPage() {
  const { faq } = useLoaderData<typeof loader>();
  const actionData = useActionData<FaqActionData>();
  const { t } = useTranslation("support");
  return (
    <div className="grid gap-6">
      <PageHeader title={t("modifyFaq")} />
      <FaqForm key={faq.id} initial={{ language: faq.language, question: faq.question, answer: faq.answer }} lastResult={actionData?.result} submitLabel={t("save")} />
    </div>
  );
}
