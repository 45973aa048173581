import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ApiKeyForm } from "~/components/api-keys/api-key-form";
import { KeyOnceCard } from "~/components/api-keys/key-once-card";
import { LinkButton } from "~/components/ui/link-button";
import { PageHeader } from "~/components/ui/page-header";
import { apiKeyFormSchema, KEY_MODULES } from "~/schemas/api-keys";
import { createApiKey } from "~/services/api-keys.server";
import { grantableActions, grantableModules } from "~/services/roles.server";
import { requireModule } from "~/utils/auth-guards.server";
import { getDb, nowMs } from "~/utils/db.server";
import { formAction, type FormReply } from "~/utils/form-action.server";

export const meta: MetaFunction = () => [{ title: "Add API Key" }];

const MODULE = "company_settings";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireModule(request, context, MODULE, "add");
  const actions = grantableActions(auth);
  return {
    grantable: grantableModules(auth).filter((m) => KEY_MODULES.includes(m)),
    actions: { canAdd: actions.permissionAdd, canModify: actions.permissionModify, canDelete: actions.permissionDelete },
  };
}

type ActionData = Partial<FormReply> & { created?: { name: string; key: string } };

/** The form stays: the answer carries the key, shown this once. */
export async function action({ request, context }: ActionFunctionArgs) {
  const auth = await requireModule(request, context, MODULE, "add");
  return formAction(request, apiKeyFormSchema, async (value, submission) => {
    const r = await createApiKey(getDb(context), auth, value, nowMs());
    return { result: submission.reply({ resetForm: true }), created: { name: value.name, key: r.key } };
  });
}

export default function AddApiKeyPage() {
  const { grantable, actions } = useLoaderData<typeof loader>();
  const created = useActionData<ActionData>()?.created;
  const { t } = useTranslation("apiKeys");
  return (
    <div className="grid gap-6">
      <PageHeader title={t("addTitle")} back={{ to: "/apiKeys", label: t("backToList") }} />
      {created ? (
        <>
          <KeyOnceCard name={created.name} apiKey={created.key} />
          <LinkButton to="/apiKeys" className="w-fit">
            {t("done")}
          </LinkButton>
        </>
      ) : (
        <ApiKeyForm grantable={grantable} grantableActions={actions} />
      )}
    </div>
  );
}
