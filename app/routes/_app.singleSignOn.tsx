import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, useLoaderData, useNavigation } from "@remix-run/react";
import { usePageForm } from "~/components/forms/use-page-form";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Checkbox } from "~/components/ui/checkbox";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { NativeSelect } from "~/components/ui/native-select";
import { PageHeader } from "~/components/ui/page-header";
import { ssoSettingsSchema } from "~/schemas/sso";
import { getSsoSettings, saveSsoSettings, ssoChoices } from "~/services/sso/settings.server";
import { requireModule, type Auth } from "~/utils/auth-guards.server";
import { getDb, nowMs } from "~/utils/db.server";
import { formAction } from "~/utils/form-action.server";
import { redirectWithMessage } from "~/utils/toast.server";

export const meta: MetaFunction = () => [{ title: "Single sign-on" }];

/** Single sign-on is a super admin's (decision 0121); the service checks again. */
async function requireSsoAdmin(request: Request, context: LoaderFunctionArgs["context"]): Promise<Auth> {
  const auth = await requireModule(request, context, "users", "modify");
  if (!auth.user.isSuperAdmin) throw new Response("Forbidden", { status: 403 });
  return auth;
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireSsoAdmin(request, context);
  const db = getDb(context);
  const [settings, choices] = await Promise.all([getSsoSettings(db, auth), ssoChoices(db, auth)]);
  return { settings, ...choices, callback: `${new URL(request.url).origin}/sso/oidc/callback` };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const auth = await requireSsoAdmin(request, context);
  return formAction(request, ssoSettingsSchema, async (value) => {
    const r = await saveSsoSettings(getDb(context), context.cloudflare.env, auth, value, nowMs());
    return redirectWithMessage({ request, context }, { ns: "sso", message: r.message });
  });
}

const BLANK_ROWS = 3;

export default function SingleSignOnPage() {
  const { settings, admins, roles, callback } = useLoaderData<typeof loader>();
  const { fields, err, formError, formProps, t } = usePageForm({ id: "sso", schema: ssoSettingsSchema, ns: "sso" });
  const navigation = useNavigation();
  const rows = [...settings.groupRoles, ...Array.from({ length: BLANK_ROWS }, () => ({ groupName: "", roleId: 0 }))];
  const roleOptions = (
    <>
      <option value="">{t("noRole")}</option>
      {roles.map((r) => (
        <option key={r.id} value={r.id}>
          {r.title}
        </option>
      ))}
    </>
  );
  return (
    <div className="grid gap-6">
      <PageHeader title={t("title")} back={{ to: "/companySettings", label: t("backToSettings") }} />
      <p className="max-w-2xl text-sm text-muted-foreground">{t("intro", { callback })}</p>
      <Form method="post" {...formProps} className="grid max-w-2xl gap-4" key={JSON.stringify(settings)}>
        {formError && (
          <Alert variant="destructive">
            <AlertDescription>{formError}</AlertDescription>
          </Alert>
        )}
        <input type="hidden" name={fields.protocol.name} value="oidc" />
        <Field label={t("enabled")} hint={t("enabledHint")} orientation="horizontal">
          <Checkbox id="sso-enabled" name={fields.enabled.name} value="1" defaultChecked={settings.enabled} />
        </Field>
        <Field label={t("issuer")} hint={t("issuerHint")} error={err(fields.oidcIssuer)}>
          <Input id="sso-issuer" name={fields.oidcIssuer.name} defaultValue={settings.oidcIssuer} inputMode="url" autoComplete="off" spellCheck={false} />
        </Field>
        <Field label={t("clientId")} error={err(fields.oidcClientId)}>
          <Input id="sso-client-id" name={fields.oidcClientId.name} defaultValue={settings.oidcClientId} autoComplete="off" spellCheck={false} />
        </Field>
        <Field label={t("clientSecret")} hint={settings.clientSecretSet ? t("clientSecretSet") : t("clientSecretNotSet")} error={err(fields.oidcClientSecret)}>
          <Input id="sso-client-secret" name={fields.oidcClientSecret.name} type="password" autoComplete="new-password" />
        </Field>
        <Field label={t("scopes")} hint={t("scopesHint")} error={err(fields.oidcScopes)}>
          <Input id="sso-scopes" name={fields.oidcScopes.name} defaultValue={settings.oidcScopes} autoComplete="off" spellCheck={false} />
        </Field>
        <Field label={t("groupsClaim")} error={err(fields.oidcGroupsClaim)}>
          <Input id="sso-groups-claim" name={fields.oidcGroupsClaim.name} defaultValue={settings.oidcGroupsClaim} autoComplete="off" spellCheck={false} />
        </Field>

        <h2 className="mt-4 text-base font-semibold">{t("policy")}</h2>
        <Field label={t("breakGlass")} hint={t("breakGlassHint")} error={err(fields.breakGlassUserId)}>
          <NativeSelect id="sso-break-glass" name={fields.breakGlassUserId.name} defaultValue={settings.breakGlassUserId ?? ""}>
            <option value="">{t("nobody")}</option>
            {admins.map((a) => (
              <option key={a.id} value={a.id}>
                {a.name} ({a.email})
              </option>
            ))}
          </NativeSelect>
        </Field>
        <Field label={t("required")} hint={t("requiredHint")} orientation="horizontal">
          <Checkbox
            id="sso-required"
            name={fields.ssoRequired.name}
            value="1"
            defaultChecked={settings.ssoRequired}
            onCheckedChange={(on) => {
              if (on === true && !window.confirm(t("confirmRequired"))) (document.getElementById("sso-required") as HTMLButtonElement | null)?.click();
            }}
          />
        </Field>
        <Field label={t("jit")} hint={t("jitHint")} orientation="horizontal">
          <Checkbox id="sso-jit" name={fields.jitEnabled.name} value="1" defaultChecked={settings.jitEnabled} />
        </Field>
        <Field label={t("defaultRole")} error={err(fields.jitDefaultRoleId)}>
          <NativeSelect id="sso-default-role" name={fields.jitDefaultRoleId.name} defaultValue={settings.jitDefaultRoleId ?? ""}>
            {roleOptions}
          </NativeSelect>
        </Field>

        <fieldset className="grid gap-2">
          <legend className="mb-1 text-base font-semibold">{t("groupRoles")}</legend>
          <p className="text-sm text-muted-foreground">{t("groupRolesHint")}</p>
          {rows.map((row, i) => (
            <div key={i} className="grid grid-cols-1 gap-2 sm:grid-cols-2">
              <Input name={`groupRoles[${i}].groupName`} defaultValue={row.groupName} aria-label={t("groupName", { n: i + 1 })} autoComplete="off" spellCheck={false} />
              <NativeSelect name={`groupRoles[${i}].roleId`} defaultValue={row.roleId || ""} aria-label={t("groupRole", { n: i + 1 })}>
                {roleOptions}
              </NativeSelect>
            </div>
          ))}
        </fieldset>
        <div>
          <Button type="submit" loading={navigation.state === "submitting"}>
            {t("save")}
          </Button>
        </div>
      </Form>
    </div>
  );
}
