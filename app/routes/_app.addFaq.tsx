import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { faqAction } from "~/routes/faq-form-action.server";
import type { FormReply } from "~/utils/form-action.server";
import { FaqForm } from "~/components/support/faq-form";
import { PageHeader } from "~/components/ui/page-header";
import { addFaq, canEditFaqs } from "~/services/faqs.server";
import { requireModule } from "~/utils/auth-guards.server";
import { getDb, nowMs } from "~/utils/db.server";

export const meta: MetaFunction = () => [{ title: "Add FAQ" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireModule(request, context, "company", "add");
  if (!canEditFaqs(auth, "add")) throw new Response("Forbidden", { status: 403 });
  return { language: new URL(request.url).searchParams.get("language") === "es" ? ("es" as const) : ("en" as const) };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const auth = await requireModule(request, context, "company", "add");
  return faqAction(request, context, (value) => addFaq(getDb(context), auth, value, nowMs()));
}

export default function AddFaqPage() {
  const { language } = useLoaderData<typeof loader>();
  const actionData = useActionData<FormReply>();
  const { t } = useTranslation("support");
  return (
    <div className="grid gap-6">
      <PageHeader title={t("addFaq")} />
      <FaqForm initial={{ language, question: "", answer: "" }} lastResult={actionData?.result} submitLabel={t("save")} />
    </div>
  );
}
