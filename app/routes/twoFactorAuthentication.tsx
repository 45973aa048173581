import { getInputProps } from "@conform-to/react";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Form, useLoaderData } from "@remix-run/react";
import { AuthCard } from "~/components/auth/auth-card";
import { AuthForm, SubmitAndBack } from "~/components/auth/form-parts";
import { useAuthForm } from "~/components/auth/use-auth-form";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { getLanguage } from "~/i18n/i18next.server";
import { resendTwoFactorCodeSchema, TWO_FACTOR_CHANNELS, twoFactorSchema, type TwoFactorChannel } from "~/schemas/auth";
import { findAccount, passkeyAuthenticate, resendTwoFactorCode, twoFactorAuthenticate } from "~/services/auth.server";
import { PASSKEY_MSG, waitingSignInOptions } from "~/services/passkeys.server";
import { ServiceError } from "~/utils/errors.server";
import { pageMessage } from "~/utils/page-message.server";
import { passkeySignInSchema } from "~/schemas/passkeys";
import { PasskeyHint, PasskeySignIn } from "~/components/auth/passkey-sign-in";
import { deliverQueued } from "~/services/deliver-queued.server";
import { smsSender } from "~/services/sms/sender.server";
import { formAction } from "~/utils/form-action.server";
import { requireAnonymous } from "~/utils/auth-guards.server";
import { getDb, nowMs } from "~/utils/db.server";
import { rememberCompany } from "~/utils/remembered-companies.server";
import { signedInHeaders } from "~/utils/session.server";
import { codePageQuery } from "~/routes/web-sign-in.server";
import { redirectWithMessage } from "~/utils/toast.server";
import { Button } from "~/components/ui/button";

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireAnonymous(request, context);
  const q = new URL(request.url).searchParams;
  const sent = TWO_FACTOR_CHANNELS.find((c) => c === q.get("sent"));
  // A passkey's sign-in challenge waits when the password was right a moment ago (decision 0123): "Use a passkey".
  const account = q.get("companyCode") && q.get("username") ? await findAccount(getDb(context), q.get("companyCode")!, q.get("username")!) : null;
  const passkey = account ? await waitingSignInOptions(getDb(context), account.user.id, nowMs()) : null;
  return {
    passkey,
    byPasskey: q.get("sent") === "passkey",
    lng: await getLanguage(request),
    username: q.get("username") ?? "",
    companyCode: q.get("companyCode") ?? "",
    // Where the code went, masked (set by the sign-in that sent it): the page says so.
    sent: sent ? { channel: sent, to: q.get("to") ?? "", fellBack: q.get("fallback") === "1" } : null,
    // The user signs in with an authenticator app: nothing was sent, and nothing can be sent instead.
    byApp: q.get("sent") === "authenticator",
  };
}

/** The button that sends a new code by the channel the last one did not take. */
const OTHER_CHANNEL: Record<TwoFactorChannel, TwoFactorChannel> = { email: "text", text: "email" };

export async function action({ request, context }: ActionFunctionArgs) {
  const env = context.cloudflare.env;
  const formData = await request.formData();
  // "Send the code by text message / by e-mail instead": a new code, answered on this page (saying where it went) with a toast.
  const channel = TWO_FACTOR_CHANNELS.find((c) => c === formData.get("intent"));
  if (channel) {
    const back = (type: "info" | "error", message: string, to?: string) => redirectWithMessage({ request, context }, { ns: "auth", type, message, to });
    return formAction(
      request,
      resendTwoFactorCodeSchema,
      async (input) => {
        const r = await resendTwoFactorCode(getDb(context), input, channel, { now: nowMs(), sms: smsSender(env) });
        deliverQueued(env, context.cloudflare.ctx.waitUntil);
        return back("info", r.message, `/twoFactorAuthentication?${codePageQuery(input, { ...r, preferredChannel: channel })}`);
      },
      { formData, onRefusal: async (message) => back("error", message) },
    );
  }
  // "Use a passkey" (decision 0123): a refusal is shown beside the passkey button, not on the code form.
  if (formData.get("intent") === "passkey") {
    const parsed = passkeySignInSchema.safeParse(Object.fromEntries(formData));
    try {
      if (!parsed.success) throw new ServiceError(400, PASSKEY_MSG.failed);
      const input = parsed.data;
      const r = await passkeyAuthenticate(getDb(context), { ...input, response: JSON.parse(input.response) }, { request, kind: "web", now: nowMs(), env });
      const headers = await signedInHeaders(context.cloudflare.env, r.token);
      headers.append("Set-Cookie", await rememberCompany(request, r.payload.company.company_name, r.payload.company.company_id));
      return redirect("/", { headers });
    } catch (e) {
      if (!(e instanceof ServiceError)) throw e;
      return data({ passkeyError: await pageMessage(request, e) }, { status: e.status });
    }
  }
  return formAction(
    request,
    twoFactorSchema,
    async (input) => {
      const r = await twoFactorAuthenticate(getDb(context), input, { request, kind: "web", now: nowMs(), env });
      const headers = await signedInHeaders(context.cloudflare.env, r.token);
      headers.append("Set-Cookie", await rememberCompany(request, r.payload.company.company_name, r.payload.company.company_id));
      return redirect("/", { headers });
    },
    { formData },
  );
}

export default function TwoFactor() {
  const { lng, username, companyCode, sent, byApp, passkey, byPasskey } = useLoaderData<typeof loader>();
  const other = OTHER_CHANNEL[sent?.channel ?? (byPasskey ? "text" : "email")];
  const { formProps, fields, err, formError, busy, t } = useAuthForm("two-factor", twoFactorSchema);
  return (
    <AuthCard title={t("twoFactorTitle")} lng={lng}>
      {sent?.fellBack && (
        <p role="status" className="mb-3 rounded-md border bg-muted/60 px-3 py-2 text-sm" data-testid="code-fallback">
          {t("codeTextFallback")}
        </p>
      )}
      <p className="mb-4 text-sm text-muted-foreground" data-testid="code-destination">
        {byApp ? t("codeFromApp") : byPasskey ? <PasskeyHint /> : sent ? t(sent.channel === "text" ? "codeSentText" : "codeSentEmail", { to: sent.to }) : t("twoFactorBody")}
      </p>
      {passkey && <PasskeySignIn options={passkey} companyCode={companyCode} username={username} />}
      <AuthForm formProps={formProps} error={formError}>
        <Field label={t("companyId")} error={err(fields.companyId)}>
          <Input {...getInputProps(fields.companyId, { type: "text" })} defaultValue={companyCode} maxLength={4} className="uppercase" />
        </Field>
        <Field label={t("userName")} error={err(fields.userName)}>
          <Input {...getInputProps(fields.userName, { type: "text" })} defaultValue={username} />
        </Field>
        <Field label={t("code")} error={err(fields.code)}>
          {/* A recovery code ("abcde-fghij") is longer than a code. */}
          <Input {...getInputProps(fields.code, { type: "text" })} inputMode={byApp ? "text" : "numeric"} autoComplete="one-time-code" maxLength={byApp ? 11 : 6} autoFocus />
        </Field>
        <SubmitAndBack label={t("verify")} busy={busy} />
      </AuthForm>
      {!byApp && (
        <Form method="post" className="mt-4">
          <input type="hidden" name="intent" value={other} />
          <input type="hidden" name="companyId" value={companyCode} />
          <input type="hidden" name="userName" value={username} />
          <Button type="submit" variant="link" className="h-auto p-0">
            {t(other === "text" ? "codeByText" : "codeByEmail")}
          </Button>
        </Form>
      )}
    </AuthCard>
  );
}
