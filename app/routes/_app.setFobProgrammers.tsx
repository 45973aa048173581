import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { FormAlert } from "~/components/auth/form-parts";
import { ProgrammerLists } from "~/components/settings/programmer-lists";
import { Button } from "~/components/ui/button";
import { PageHeader } from "~/components/ui/page-header";
import { getFixedT, getLanguage } from "~/i18n/i18next.server";
import { translateMessage } from "~/i18n/messages";
import { fobProgrammersSchema, SETTINGS_MESSAGES } from "~/schemas/settings";
import { getFobProgrammers, saveFobProgrammers, type FobProgrammer } from "~/services/fob-programmers.server";
import { requireModule } from "~/utils/auth-guards.server";
import { getDb, nowMs } from "~/utils/db.server";
import { ServiceError } from "~/utils/errors.server";
import { redirectWithToast } from "~/utils/toast.server";

export const meta: MetaFunction = () => [{ title: "Fob programmers" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireModule(request, context, "company_settings");
  return getFobProgrammers(getDb(context), auth);
}

export async function action({ request, context }: ActionFunctionArgs) {
  const auth = await requireModule(request, context, "company_settings", "modify");
  const form = await request.formData();
  const t = await getFixedT(await getLanguage(request), "settings");
  const parsed = fobProgrammersSchema.safeParse({ fob_programmers: form.getAll("fob_programmers").map(String) });
  if (!parsed.success) return data({ message: translateMessage(t, SETTINGS_MESSAGES.programmerNotFound, "settings") }, { status: 400 });
  try {
    await saveFobProgrammers(getDb(context), auth, parsed.data, nowMs());
  } catch (e) {
    if (!(e instanceof ServiceError)) throw e;
    return data({ message: translateMessage(t, e.message, "settings") }, { status: e.status });
  }
  return redirectWithToast("/setFobProgrammers", { type: "success", message: translateMessage(t, SETTINGS_MESSAGES.fobsChanged, "settings") }, context.cloudflare.env);
}

const byName = (a: FobProgrammer, b: FobProgrammer) => a.displayName.localeCompare(b.displayName) || a.id - b.id;

export default function SetFobProgrammers() {
  const lists = useLoaderData<typeof loader>();
  return <ProgrammerForm key={JSON.stringify(lists)} {...lists} />;
}

function ProgrammerForm(lists: { available: FobProgrammer[]; assigned: FobProgrammer[] }) {
  const { t } = useTranslation("settings");
  const actionData = useActionData<{ message: string }>();
  const busy = useNavigation().state === "submitting";
  const [available, setAvailable] = useState(lists.available);
  const [assigned, setAssigned] = useState(lists.assigned);

  const move = (p: FobProgrammer, toAssigned: boolean) => {
    const [from, to] = toAssigned ? [setAvailable, setAssigned] : [setAssigned, setAvailable];
    from((list) => list.filter((x) => x.id !== p.id));
    to((list) => [...list, p].sort(byName));
  };

  return (
    <div className="max-w-3xl">
      <PageHeader title={t("fobs.title")} description={t("fobs.description")} />
      <Form method="post" className="grid gap-6">
        <FormAlert message={actionData?.message} />
        <ProgrammerLists available={available} assigned={assigned} onMove={move} />
        <div className="flex flex-wrap gap-3">
          <Button type="submit" loading={busy}>
            {t("fobs.submit")}
          </Button>
          <Button asChild variant="outline">
            <Link to="/companySettings">{t("back")}</Link>
          </Button>
        </div>
      </Form>
    </div>
  );
}
