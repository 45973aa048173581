import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { RoleForm, type RoleFormValues } from "~/components/roles/role-form";
import { PageHeader } from "~/components/ui/page-header";
import { getRoleDetails, grantableActions, grantableModules, modifyRole } from "~/services/roles.server";
import { requireModule } from "~/utils/auth-guards.server";
import { getDb, nowMs } from "~/utils/db.server";
import { redirectWithMessage } from "~/utils/toast.server";
import { roleFormSchema } from "~/schemas/roles";
import { formAction } from "~/utils/form-action.server";
import { loadRecord } from "~/utils/record-from-url.server";

export const meta: MetaFunction = () => [{ title: "Modify Role" }];

const idOf = (request: Request) => Number(new URL(request.url).searchParams.get("id"));

export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireModule(request, context, "role", "modify");
  // Without an id (or with another company's) the page goes back to the list (spec §2).
  return loadRecord(request, { list: "/role" }, async (id) => ({
    role: await getRoleDetails(getDb(context), auth, id),
    grantable: grantableModules(auth),
    actions: grantableActions(auth),
  }));
}

export async function action({ request, context }: ActionFunctionArgs) {
  const auth = await requireModule(request, context, "role", "modify");
  return formAction(request, roleFormSchema, async (value) => {
    const r = await modifyRole(getDb(context), auth, idOf(request), value, nowMs());
    return redirectWithMessage({ request, context }, { to: "/role", ns: "roles", message: r.message });
  });
}

export default function ModifyRolePage() {
  const { role, grantable, actions } = useLoaderData<typeof loader>();
  const { t } = useTranslation("roles");
  const initial = useMemo<RoleFormValues>(
    () => ({
      title: role.title,
      description: role.description,
      actions: {
        permissionAll: role.permissionAll,
        permissionAdd: role.permissionAdd,
        permissionModify: role.permissionModify,
        permissionView: role.permissionView,
        permissionDelete: role.permissionDelete,
      },
      modules: role.modules,
    }),
    [role],
  );
  return (
    <div className="grid gap-6">
      <PageHeader title={t("modifyTitle")} description={role.title} back={{ to: "/role", label: t("backToRoles") }} />
      <RoleForm initial={initial} grantable={grantable} grantableActions={actions} submitLabel={t("save")} />
    </div>
  );
}
