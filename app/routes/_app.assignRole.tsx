import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, useLoaderData, useNavigation } from "@remix-run/react";
import { useState } from "react";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { SelectField } from "~/components/select-field";
import { Button } from "~/components/ui/button";
import { PageHeader } from "~/components/ui/page-header";
import { assignRoleSchema } from "~/schemas/roles";
import { assignRole, listRoleUsers, listRoles, removeRoleFromUser } from "~/services/roles.server";
import { requireModule } from "~/utils/auth-guards.server";
import { getDb, nowMs } from "~/utils/db.server";
import { redirectWithMessage } from "~/utils/toast.server";
import { usePageForm } from "~/components/forms/use-page-form";
import { formAction } from "~/utils/form-action.server";

export const meta: MetaFunction = () => [{ title: "Assign Role" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireModule(request, context, "role", "add");
  const db = getDb(context);
  const [roles, unassigned, assigned] = await Promise.all([listRoles(db, auth), listRoleUsers(db, auth, "unassigned"), listRoleUsers(db, auth, "assigned")]);
  return { roles: roles.map((r) => ({ id: r.id, title: r.title })), unassigned, assigned, me: auth.user.id };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const auth = await requireModule(request, context, "role", "add");
  const formData = await request.formData();
  const db = getDb(context);
  const done = (message: string) => redirectWithMessage({ request, context }, { ns: "roles", message });
  if (formData.get("intent") === "remove") {
    return formAction(request, assignRoleSchema.pick({ user_id: true }), async ({ user_id }) => done((await removeRoleFromUser(db, auth, user_id, nowMs())).message), { formData });
  }
  return formAction(request, assignRoleSchema, async (value) => done((await assignRole(db, auth, value, nowMs())).message), { formData });
}

/** /assignRole: choose a role and a user; users without and with a role are listed apart, and move on assignment. */
export default function AssignRolePage() {
  const { roles, unassigned, assigned, me } = useLoaderData<typeof loader>();
  const { fields, err, formError, formProps, t } = usePageForm({ id: "assign-role-form", schema: assignRoleSchema, ns: "roles" });
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const [roleId, setRoleId] = useState("");
  const [userId, setUserId] = useState("");

  const everyone = [...unassigned, ...assigned].sort((a, b) => a.displayName.localeCompare(b.displayName));
  const selects = [
    { id: "assign-role", label: t("chooseRole"), field: fields.role_id, value: roleId, set: setRoleId, options: roles.map((r) => ({ value: r.id, label: r.title })) },
    {
      id: "assign-user",
      label: t("chooseUser"),
      field: fields.user_id,
      value: userId,
      set: setUserId,
      options: everyone.map((u) => ({ value: u.id, label: `${u.displayName} (${u.email})` })),
    },
  ];
  return (
    <div className="grid gap-6">
      <PageHeader title={t("assignTitle")} back={{ to: "/role", label: t("backToRoles") }} />
      {formError && (
        <p role="alert" className="rounded-md border border-destructive/40 bg-destructive/5 p-3 text-sm">
          {formError}
        </p>
      )}
      <Form method="post" {...formProps} className="grid max-w-3xl gap-4 sm:grid-cols-[1fr_1fr_auto] sm:items-start">
        {selects.map((s) => (
          <SelectField
            key={s.id}
            id={s.id}
            label={s.label}
            error={err(s.field)}
            required
            name={s.field.name}
            value={s.value}
            onChange={(e) => s.set(e.target.value)}
            blank={t("choose")}
            options={s.options}
          />
        ))}
        <Button type="submit" name="intent" value="assign" disabled={busy} className="sm:mt-[26px]">
          {t("assign")}
        </Button>
      </Form>
      <div className="grid gap-4 md:grid-cols-2">
        <section aria-labelledby="unassigned-title" className="grid content-start gap-2 rounded-lg border p-3">
          <h2 id="unassigned-title" className="text-sm font-semibold">
            {t("unassigned")} <span className="font-normal text-muted-foreground">({unassigned.length})</span>
          </h2>
          {unassigned.length === 0 ? (
            <p className="text-sm text-muted-foreground">{t("noUnassigned")}</p>
          ) : (
            <ul className="max-h-96 overflow-y-auto" data-testid="users-unassigned">
              {unassigned.map((u) => (
                <li key={u.id}>
                  <button
                    type="button"
                    onClick={() => setUserId(String(u.id))}
                    aria-label={t("assignTo", { name: u.displayName })}
                    className="w-full rounded-md px-2 py-1.5 text-left text-sm hover:bg-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
                  >
                    {u.displayName} <span className="text-muted-foreground">{u.email}</span>
                  </button>
                </li>
              ))}
            </ul>
          )}
        </section>
        <section aria-labelledby="assigned-title" className="grid content-start gap-2 rounded-lg border p-3">
          <h2 id="assigned-title" className="text-sm font-semibold">
            {t("assigned")} <span className="font-normal text-muted-foreground">({assigned.length})</span>
          </h2>
          {assigned.length === 0 ? (
            <p className="text-sm text-muted-foreground">{t("noAssigned")}</p>
          ) : (
            <ul className="max-h-96 overflow-y-auto" data-testid="users-assigned">
              {assigned.map((u) => (
                <li key={u.id} className="flex items-center justify-between gap-2 px-2 py-1.5 text-sm">
                  <button type="button" onClick={() => setUserId(String(u.id))} className="min-w-0 truncate text-left hover:underline">
                    {u.displayName} <span className="text-muted-foreground">— {u.role?.title}</span>
                    {u.isSuperAdmin && <span className="ml-1 text-xs text-muted-foreground">({t("superAdmin")})</span>}
                  </button>
                  {/* The server refuses a change of one's own role, so the own row offers none. */}
                  {u.id !== me && (
                    <ConfirmDialog
                      trigger={
                        <Button type="button" size="sm" variant="ghost" disabled={busy} aria-label={t("removeRoleOf", { name: u.displayName })}>
                          {t("removeRole")}
                        </Button>
                      }
                      title={t("removeRoleTitle", { name: u.displayName })}
                      description={t("removeRoleDescription", { name: u.displayName, role: u.role?.title ?? "" })}
                      fields={{ intent: "remove", user_id: u.id }}
                      confirmLabel={t("removeRole")}
                      cancelLabel={t("cancel")}
                      destructive
                    />
                  )}
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>
    </div>
  );
}
