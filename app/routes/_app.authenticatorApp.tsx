import { getInputProps } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import QRCode from "qrcode";
import { useTranslation } from "react-i18next";
import { usePageForm } from "~/components/forms/use-page-form";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { PageHeader } from "~/components/ui/page-header";
import { authenticatorCodeSchema } from "~/schemas/authenticator";
import * as authenticator from "~/services/authenticator.server";
import { requireAuth } from "~/utils/auth-guards.server";
import { getDb, nowMs } from "~/utils/db.server";
import { ServiceError } from "~/utils/errors.server";
import { formAction, type FormReply } from "~/utils/form-action.server";
import { redirectWithMessage } from "~/utils/toast.server";

export const meta: MetaFunction = () => [{ title: "Authenticator App" }];

/** The otpauth:// URI as an SVG data URL (the page's CSP allows data: images, nothing remote). */
async function qrOf(uri: string): Promise<string> {
  const svg = await QRCode.toString(uri, { type: "svg", margin: 2, errorCorrectionLevel: "M" });
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireAuth(request, context);
  const db = getDb(context);
  const state = await authenticator.authenticatorState(db, auth.user.id);
  const pending = state === "pending" ? await authenticator.pendingEnrolment(db, context.cloudflare.env, auth) : null;
  return {
    state,
    pending: pending && { secret: pending.secret, uri: pending.uri, qr: await qrOf(pending.uri) },
    codesLeft: state === "on" ? await authenticator.recoveryCodesLeft(db, auth.user.id) : 0,
  };
}

type ConfirmReply = FormReply & { recoveryCodes?: string[] };

export async function action({ request, context }: ActionFunctionArgs) {
  const auth = await requireAuth(request, context);
  const db = getDb(context);
  const env = context.cloudflare.env;
  const formData = await request.formData();
  const intent = formData.get("intent");
  const back = (message: string, type: "success" | "error" = "success") => redirectWithMessage({ request, context }, { ns: "authenticator", message, type });
  if (intent === "start") {
    try {
      await authenticator.startEnrolment(db, env, auth, nowMs());
    } catch (e) {
      if (e instanceof ServiceError) return back(e.message, "error");
      throw e;
    }
    return back("Scan the QR code, then enter a code from the app");
  }
  if (intent === "confirm")
    return formAction(
      request,
      authenticatorCodeSchema,
      async (value, submission) => {
        const r = await authenticator.confirmEnrolment(db, env, auth, value.code, nowMs());
        // Shown this once: only their keyed hashes are kept.
        return { result: submission.reply({ resetForm: true }), message: r.message, recoveryCodes: r.recoveryCodes } satisfies ConfirmReply;
      },
      { formData, extra: { form: "confirm" } },
    );
  if (intent === "remove")
    return formAction(request, authenticatorCodeSchema, async (value) => back((await authenticator.removeOwnAuthenticator(db, env, auth, value.code, nowMs())).message), {
      formData,
      extra: { form: "remove" },
    });
  throw new Response("Unknown intent", { status: 400 });
}

/** A code field and its button: confirming the set-up, or switching the app off. */
function CodeForm({ intent, label }: { intent: "confirm" | "remove"; label: string }) {
  const { fields, err, formError, formProps, t } = usePageForm({ id: `authenticator-${intent}`, schema: authenticatorCodeSchema, ns: "authenticator", shouldValidate: "onSubmit" });
  const navigation = useNavigation();
  return (
    <Form method="post" {...formProps} className="grid gap-4 sm:max-w-sm">
      <input type="hidden" name="intent" value={intent} />
      {formError && <p className="text-sm font-medium text-destructive">{formError}</p>}
      <Field label={t(intent === "confirm" ? "codeLabel" : "codeOrRecoveryLabel")} error={err(fields.code)}>
        <Input {...getInputProps(fields.code, { type: "text" })} inputMode={intent === "confirm" ? "numeric" : "text"} autoComplete="one-time-code" maxLength={11} />
      </Field>
      <Button type="submit" variant={intent === "remove" ? "destructive" : "default"} className="w-fit" loading={navigation.formData?.get("intent") === intent}>
        {label}
      </Button>
    </Form>
  );
}

export default function AuthenticatorAppPage() {
  const { state, pending, codesLeft } = useLoaderData<typeof loader>();
  const reply = useActionData<ConfirmReply>();
  const { t } = useTranslation("authenticator");
  const navigation = useNavigation();
  return (
    <div className="mx-auto grid max-w-2xl gap-6">
      <PageHeader title={t("title")} />
      <p className="text-sm text-muted-foreground">{t("intro")}</p>
      {reply?.recoveryCodes && (
        <Card data-testid="recovery-codes">
          <CardHeader>
            <CardTitle>{t("recoveryTitle")}</CardTitle>
          </CardHeader>
          <CardContent className="grid gap-3">
            <p className="text-sm">{t("recoveryOnce")}</p>
            <ul className="grid grid-cols-2 gap-2 font-mono text-sm">
              {reply.recoveryCodes.map((code) => (
                <li key={code} data-testid="recovery-code">
                  {code}
                </li>
              ))}
            </ul>
          </CardContent>
        </Card>
      )}
      <Card>
        <CardHeader>
          <CardTitle>{t(`state.${state}`)}</CardTitle>
        </CardHeader>
        <CardContent className="grid gap-4">
          {state === "on" && (
            <>
              <p className="text-sm" data-testid="authenticator-on">
                {t("onText", { count: codesLeft })}
              </p>
              <p className="text-sm text-muted-foreground">{t("removeText")}</p>
              <CodeForm intent="remove" label={t("remove")} />
            </>
          )}
          {state === "pending" && pending && (
            <>
              <p className="text-sm">{t("scan")}</p>
              <img src={pending.qr} alt={t("qrAlt")} width={200} height={200} className="rounded-md border bg-white" data-testid="authenticator-qr" />
              <p className="text-sm">
                {t("typeSecret")}{" "}
                <code className="break-all rounded bg-muted px-1 font-mono" data-testid="authenticator-secret">
                  {pending.secret}
                </code>
              </p>
              <CodeForm intent="confirm" label={t("confirm")} />
            </>
          )}
          {state === "off" && (
            <>
              <p className="text-sm">{t("offText")}</p>
              <Form method="post">
                <input type="hidden" name="intent" value="start" />
                <Button type="submit" className="h-auto w-fit max-w-full whitespace-normal" loading={navigation.formData?.get("intent") === "start"}>
                  {t("start")}
                </Button>
              </Form>
            </>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
