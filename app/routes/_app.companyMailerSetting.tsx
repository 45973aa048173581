import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useEffect, useState } from "react";
import { usePageForm } from "~/components/forms/use-page-form";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { PageHeader } from "~/components/ui/page-header";
import { translateMessage } from "~/i18n/messages";
import { mailerFormSchema } from "~/schemas/mailer";
import { getMailerConfig, MAILER_MSG, modifyMailerConfig, sendTestMail } from "~/services/mailer.server";
import { requireModule } from "~/utils/auth-guards.server";
import { getDb, nowMs } from "~/utils/db.server";
import { ServiceError } from "~/utils/errors.server";
import { can } from "~/utils/permissions";
import { idFromUrl } from "~/utils/record-from-url.server";
import { formAction } from "~/utils/form-action.server";
import { redirectWithMessage } from "~/utils/toast.server";

export const meta: MetaFunction = () => [{ title: "Default Mailer Config" }];

const MODULES = ["company", "users"] as const;
/** The test mail's outcome, shown in a banner (it concerns no field). */
type TestReply = { test: { ok: boolean; message: string; detail?: string } };

// A failed test mail reads "Test mail failed: <SMTP stage and reply>": the sentence is translated, the reply shown as the server gave it.
const SMTP_FAILED = `${MAILER_MSG.testFailed}: `;

const companyIdOf = (request: Request) => idFromUrl(request, "company_id");

export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireModule(request, context, MODULES);
  try {
    const config = await getMailerConfig(getDb(context), auth, companyIdOf(request));
    return {
      config,
      canModify: can(auth.permissions, MODULES, "modify"),
      back: can(auth.permissions, "company_settings") ? "/companySettings" : can(auth.permissions, "company") ? "/company" : "/",
    };
  } catch (e) {
    if (e instanceof ServiceError && (e.status === 403 || e.status === 404)) throw new Response(e.message, { status: e.status });
    throw e;
  }
}

/** Save runs the form's schema through Conform; "Send test mail" posts only its intent and answers in a banner. */
export async function action({ request, context }: ActionFunctionArgs) {
  const auth = await requireModule(request, context, MODULES, "modify");
  const formData = await request.formData();
  const env = context.cloudflare.env;
  const companyId = companyIdOf(request);
  if (formData.get("intent") === "test") {
    try {
      const r = await sendTestMail(getDb(context), env, auth, { company_id: companyId }, nowMs());
      return { test: { ok: true, message: r.message } } satisfies TestReply;
    } catch (e) {
      if (e instanceof ServiceError && e.details.errorCode === "smtp" && e.message.startsWith(SMTP_FAILED))
        return data({ test: { ok: false, message: MAILER_MSG.testFailed, detail: e.message.slice(SMTP_FAILED.length) } } satisfies TestReply, { status: e.status });
      if (e instanceof ServiceError && e.status !== 403) return data({ test: { ok: false, message: e.message } } satisfies TestReply, { status: e.status });
      throw e;
    }
  }
  return formAction(
    request,
    mailerFormSchema,
    async (value) => {
      const r = await modifyMailerConfig(getDb(context), env, auth, { ...value, company_id: companyId }, nowMs());
      return redirectWithMessage({ request, context }, { ns: "mailer", message: r.message });
    },
    { formData },
  );
}

const FIELDS = ["host_name", "port_name", "user_name", "user_password"] as const;

/** /companyMailerSetting: host, port, user name and password (all required); the password is never shown. */
export default function MailerSettingPage() {
  const { config, canModify, back } = useLoaderData<typeof loader>();
  const actionData = useActionData<{ test?: TestReply["test"] }>();
  const { fields, err, formError, formProps, t } = usePageForm({ id: "mailer", schema: mailerFormSchema, ns: "mailer" });
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const initial = { host_name: config.host_name, port_name: config.port_name == null ? "" : String(config.port_name), user_name: config.user_name, user_password: "" };
  const [values, setValues] = useState<Record<string, string>>(initial);
  // After a save the page reloads its data: the typed password is dropped (it is never sent back).
  // eslint-disable-next-line react-hooks/exhaustive-deps
  useEffect(() => setValues(initial), [config]);
  const testMessage = actionData?.test;
  return (
    <div className="grid gap-6">
      <PageHeader title={t("title")} description={config.company_id == null ? t("platformDefault") : config.target} back={{ to: back, label: t("back") }} />
      {testMessage && (
        <Alert variant={testMessage.ok ? "info" : "destructive"} data-testid="mailer-result">
          <AlertDescription>
            {translateMessage(t, testMessage.message, "mailer")}
            {testMessage.detail && `: ${testMessage.detail}`}
          </AlertDescription>
        </Alert>
      )}
      <Form method="post" {...formProps} className="grid max-w-xl gap-4">
        {formError && (
          <Alert variant="destructive">
            <AlertDescription>{formError}</AlertDescription>
          </Alert>
        )}
        {FIELDS.map((k) => (
          <Field key={k} label={t(k)} error={err(fields[k])} required hint={k === "user_password" && config.has_password ? t("passwordSaved") : undefined}>
            <Input
              id={`mailer-${k}`}
              name={k}
              type={k === "user_password" ? "password" : k === "port_name" ? "number" : "text"}
              autoComplete={k === "user_password" ? "new-password" : "off"}
              value={values[k]}
              disabled={!canModify}
              onChange={(e) => {
                const v = e.target.value;
                setValues((x) => ({ ...x, [k]: v }));
              }}
            />
          </Field>
        ))}
        {canModify && (
          <div className="flex gap-2">
            <Button type="submit" name="intent" value="save" disabled={busy}>
              {t("save")}
            </Button>
            <Button type="submit" form="mailer-test" name="intent" value="test" variant="outline" disabled={busy || config.id == null}>
              {t("sendTest")}
            </Button>
          </div>
        )}
      </Form>
      {/* The test mail checks the saved configuration, not the fields: its own form, outside the field checks. */}
      <Form id="mailer-test" method="post" hidden />
    </div>
  );
}
