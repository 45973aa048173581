import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { EMPTY_ROLE, RoleForm } from "~/components/roles/role-form";
import { PageHeader } from "~/components/ui/page-header";
import { createRole, grantableActions, grantableModules } from "~/services/roles.server";
import { requireModule } from "~/utils/auth-guards.server";
import { getDb, nowMs } from "~/utils/db.server";
import { redirectWithMessage } from "~/utils/toast.server";
import { roleFormSchema } from "~/schemas/roles";
import { formAction } from "~/utils/form-action.server";

export const meta: MetaFunction = () => [{ title: "Add Role" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireModule(request, context, "role", "add");
  return { grantable: grantableModules(auth), actions: grantableActions(auth) };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const auth = await requireModule(request, context, "role", "add");
  return formAction(request, roleFormSchema, async (value) => {
    const r = await createRole(getDb(context), auth, value, nowMs());
    return redirectWithMessage({ request, context }, { to: "/role", ns: "roles", message: r.message });
  });
}

export default function AddRolePage() {
  const { grantable, actions } = useLoaderData<typeof loader>();
  const { t } = useTranslation("roles");
  return (
    <div className="grid gap-6">
      <PageHeader title={t("addTitle")} back={{ to: "/role", label: t("backToRoles") }} />
      <RoleForm initial={EMPTY_ROLE} grantable={grantable} grantableActions={actions} submitLabel={t("create")} />
    </div>
  );
}
