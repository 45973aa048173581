import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { CompanyForm, emptyCompany } from "~/components/companies/company-form";
import { Button } from "~/components/ui/button";
import { PageHeader } from "~/components/ui/page-header";
import { getFixedT, getLanguage } from "~/i18n/i18next.server";
import { translateMessage } from "~/i18n/messages";
import { addCompany, freeCompanyCode, listParentOptions } from "~/services/companies.server";
import { deliverQueuedMail } from "~/services/mail/outbox.server";
import { requireModule } from "~/utils/auth-guards.server";
import { getDb, nowMs } from "~/utils/db.server";
import { ServiceError } from "~/utils/errors.server";
import { redirectWithToast } from "~/utils/toast.server";

export const meta: MetaFunction = () => [{ title: "Create a Company" }];

type Failure = { message: string; errors: Record<string, string[]> };

export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireModule(request, context, "company", "add");
  const db = getDb(context);
  const [parents, code] = await Promise.all([listParentOptions(db, auth), freeCompanyCode(db, auth)]);
  return { parents, code };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const auth = await requireModule(request, context, "company", "add");
  const form = Object.fromEntries(await request.formData());
  const env = context.cloudflare.env;
  try {
    const r = await addCompany(getDb(context), auth, form, { origin: new URL(request.url).origin, now: nowMs() });
    deliverQueuedMail(env, (p) => context.cloudflare.ctx.waitUntil(p));
    const t = await getFixedT(await getLanguage(request), "companies");
    return redirectWithToast("/company", { type: "success", message: translateMessage(t, r.message, "companies") }, env);
  } catch (e) {
    if (e instanceof ServiceError && e.status !== 403) return { message: e.message, errors: e.details.fieldErrors ?? {} } satisfies Failure;
    throw e;
  }
}

export default function AddCompanyPage() {
  const { parents, code } = useLoaderData<typeof loader>();
  const result = useActionData<Failure>();
  const { t } = useTranslation("companies");
  const initial = useMemo(() => emptyCompany(code), [code]);
  return (
    <div className="grid gap-6">
      <PageHeader
        title={t("addTitle")}
        actions={
          <Button asChild variant="outline">
            <Link to="/company">{t("backToList")}</Link>
          </Button>
        }
      />
      <CompanyForm mode="add" initial={initial} parents={parents} errors={result?.errors} message={result?.message} />
    </div>
  );
}
