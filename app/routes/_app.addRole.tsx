import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { EMPTY_ROLE, RoleForm } from "~/components/roles/role-form";
import { Button } from "~/components/ui/button";
import { PageHeader } from "~/components/ui/page-header";
import { getFixedT, getLanguage } from "~/i18n/i18next.server";
import { translateMessage } from "~/i18n/messages";
import { createRole, grantableActions, grantableModules } from "~/services/roles.server";
import { requireModule } from "~/utils/auth-guards.server";
import { getDb, nowMs } from "~/utils/db.server";
import { redirectWithToast } from "~/utils/toast.server";
import { roleFormSchema } from "~/schemas/roles";
import { formAction } from "~/utils/form-action.server";
import { AS_POSTED } from "~/utils/form-options";

export const meta: MetaFunction = () => [{ title: "Add Role" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireModule(request, context, "role", "add");
  return { grantable: grantableModules(auth), actions: grantableActions(auth) };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const auth = await requireModule(request, context, "role", "add");
  // The service parses the posted fields itself with the same schema.
  return formAction(
    await request.formData(),
    roleFormSchema,
    async (_value, submission) => {
      const r = await createRole(getDb(context), auth, submission.payload, nowMs());
      const t = await getFixedT(await getLanguage(request), "roles");
      return redirectWithToast("/role", { type: "success", message: translateMessage(t, r.message, "roles") }, context.cloudflare.env);
    },
    AS_POSTED,
  );
}

export default function AddRolePage() {
  const { grantable, actions } = useLoaderData<typeof loader>();
  const { t } = useTranslation("roles");
  return (
    <div className="grid gap-6">
      <PageHeader
        title={t("addTitle")}
        actions={
          <Button asChild variant="outline">
            <Link to="/role">{t("backToRoles")}</Link>
          </Button>
        }
      />
      <RoleForm initial={EMPTY_ROLE} grantable={grantable} grantableActions={actions} submitLabel={t("create")} />
    </div>
  );
}
