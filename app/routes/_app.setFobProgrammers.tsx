import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useLoaderData, useNavigation } from "@remix-run/react";
import { useState } from "react";
import { FormAlert } from "~/components/auth/form-parts";
import { ProgrammerLists } from "~/components/settings/programmer-lists";
import { Button } from "~/components/ui/button";
import { PageHeader } from "~/components/ui/page-header";
import { fobProgrammersSchema, SETTINGS_MSG } from "~/schemas/settings";
import { getFobProgrammers, saveFobProgrammers, type FobProgrammer } from "~/services/fob-programmers.server";
import { requireModule } from "~/utils/auth-guards.server";
import { getDb, nowMs } from "~/utils/db.server";
import { redirectWithMessage } from "~/utils/toast.server";
import { usePageForm } from "~/components/forms/use-page-form";
import { formAction } from "~/utils/form-action.server";

export const meta: MetaFunction = () => [{ title: "Fob programmers" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireModule(request, context, "company_settings");
  return getFobProgrammers(getDb(context), auth);
}

export async function action({ request, context }: ActionFunctionArgs) {
  const auth = await requireModule(request, context, "company_settings", "modify");
  return formAction(request, fobProgrammersSchema, async (value) => {
    await saveFobProgrammers(getDb(context), auth, value, nowMs());
    return redirectWithMessage({ request, context }, { to: "/setFobProgrammers", ns: "settings", message: SETTINGS_MSG.fobsChanged });
  });
}

const byName = (a: FobProgrammer, b: FobProgrammer) => a.displayName.localeCompare(b.displayName) || a.id - b.id;

export default function SetFobProgrammers() {
  const lists = useLoaderData<typeof loader>();
  return <ProgrammerForm key={JSON.stringify(lists)} {...lists} />;
}

function ProgrammerForm(lists: { available: FobProgrammer[]; assigned: FobProgrammer[] }) {
  const { fields, err, formError, formProps, t } = usePageForm({ id: "fob-programmers", schema: fobProgrammersSchema, ns: "settings" });
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
      <Form method="post" {...formProps} className="grid gap-6">
        <FormAlert message={formError ?? err(fields.fob_programmers)} />
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
