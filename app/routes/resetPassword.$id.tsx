import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { useActionData, useLoaderData } from "@remix-run/react";
import { useEffect, useState } from "react";
import { z } from "zod";
import { getInputProps } from "@conform-to/react";
import { AuthCard } from "~/components/auth/auth-card";
import { AuthForm, SubmitAndBack } from "~/components/auth/form-parts";
import { NewPasswordFields } from "~/components/auth/new-password-fields";
import { useAuthForm } from "~/components/auth/use-auth-form";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { LinkButton } from "~/components/ui/link-button";
import { getLanguage, languageCookie } from "~/i18n/i18next.server";
import { APP_VERSION } from "~/phone/phone-sign-in";
import { installationId, phoneStore, type CodeStep, type PhoneSession, type RefusedSignIn } from "~/phone/phone-store";
import { signInToConsole } from "~/routes/web-sign-in.server";
import { describePasswordLink } from "~/services/auth.server";
import { webResetPassword } from "~/services/password-reset.server";
import { deliverQueued } from "~/services/deliver-queued.server";
import { mobileLogin } from "~/services/mobile.server";
import { formAction } from "~/utils/form-action.server";
import { getDb, nowMs } from "~/utils/db.server";
import { ServiceError } from "~/utils/errors.server";

export const meta: MetaFunction = () => [{ title: "Choose your password" }];

/**
 * A set-password link (decision 0055): an invite or a reset. The page names the account it opens; once
 * the password is chosen the person is signed in where the link lands: the console's home, or the
 * phone app at /m (its session is handed to the app's storage on this phone).
 */
const schema = z
  .object({
    password: z.string({ required_error: "New password is required" }).min(1, "New password is required"),
    confirmPassword: z.string({ required_error: "Confirm password is required" }).min(1, "Confirm password is required"),
    /** Reset mode 'text': the code texted to the phone (the server says whether the link needs it). */
    code: z.string().trim().max(12).optional(),
    /** The phone app's installation on this browser, so a phone landing binds the phone that signed in. */
    installationId: z.string().max(128).optional(),
  })
  .refine((v) => v.password === v.confirmPassword, { message: "The two passwords must match", path: ["confirmPassword"] });

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const link = await describePasswordLink(getDb(context), params.id ?? "", nowMs());
  return { lng: await getLanguage(request), link };
}

/**
 * The phone's session, its code step when the company requires a second factor (the code is on its
 * way), or why the automatic sign-in was refused (a server message, shown on /m's sign-in).
 */
type PhoneLanding = { phone: PhoneSession | null; codeStep: CodeStep | null; refused: RefusedSignIn | null };

export async function action({ request, params, context }: ActionFunctionArgs) {
  const db = getDb(context);
  const lng = await getLanguage(request);
  return formAction(
    request,
    schema,
    async (input) => {
      const r = await webResetPassword(db, { uid: params.id ?? "", password: input.password, confirmPassword: input.confirmPassword, code: input.code }, nowMs()).finally(() =>
        // A fifth wrong code may have queued the super admins' alert.
        deliverQueued(context.cloudflare.env, context.cloudflare.ctx.waitUntil),
      );
      const credentials = { ...r.signIn, password: input.password, language: lng };
      if (r.landsOn === "console") return signInToConsole({ request, context }, credentials, "/");
      // The phone app signs in through its own call, bound to this browser's installation; a second
      // factor opens /m on its code step; another bound phone leaves the person to sign in on /m, told why.
      const env = context.cloudflare.env;
      let refused: RefusedSignIn | null = null;
      let codeStep: CodeStep | null = null;
      const phone = input.installationId
        ? await mobileLogin(db, { ...credentials, installationId: input.installationId, appVersion: APP_VERSION }, { request, now: nowMs(), env }).catch((e) => {
            if (!(e instanceof ServiceError)) throw e;
            if (e.details.errorCode === "2fa-required") {
              deliverQueued(env, context.cloudflare.ctx.waitUntil);
              const sent = e.details.payload as { e_mail: string; phoneNumber: string };
              codeStep = { ...r.signIn, email: sent.e_mail, phone: sent.phoneNumber, channel: "email" };
            } else refused = { message: e.message, code: e.details.errorCode ?? null };
            return null;
          })
        : null;
      const landing: PhoneLanding = {
        refused,
        codeStep,
        phone: phone && {
          token: phone.token,
          userName: r.signIn.userName,
          companyId: r.signIn.companyId,
          displayName: phone.payload.dispay_name,
          settings: phone.payload.settings,
        },
      };
      // The app opens in the page's language (an invite's is the company's), as the console's landing does.
      return data(landing, { headers: { "Set-Cookie": await languageCookie.serialize(lng) } });
    },
    { hideFields: ["password", "confirmPassword"] },
  );
}

export default function ResetPassword() {
  const { lng, link } = useLoaderData<typeof loader>();
  const { formProps, fields, err, formError, busy, t } = useAuthForm("reset", schema);
  const landed = useActionData<typeof action>() as PhoneLanding | undefined;
  const [installation, setInstallation] = useState("");
  useEffect(() => setInstallation(installationId()), []);
  useEffect(() => {
    if (!landed || !("phone" in landed)) return;
    if (landed.phone) phoneStore.setSession(landed.phone);
    else if (landed.codeStep) phoneStore.setCodeStep(landed.codeStep);
    else if (landed.refused) phoneStore.setRefusedSignIn(landed.refused);
    window.location.assign("/m");
  }, [landed]);

  if (!link) {
    return (
      <AuthCard title={t("linkInvalidTitle")} lng={lng}>
        <p className="mb-4 text-sm">{t("linkInvalidBody")}</p>
        <div className="flex flex-col gap-2">
          <LinkButton to="/forgotPassword">{t("sendLink")}</LinkButton>
          <LinkButton variant="link" size="inline" to="/m" className="text-center">
            {t("openPhoneApp")}
          </LinkButton>
        </div>
      </AuthCard>
    );
  }
  return (
    <AuthCard title={t(link.purpose === "invite" ? "inviteTitle" : "resetTitle")} lng={lng}>
      <dl className="mb-4 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 rounded-md bg-muted/60 p-3 text-sm" data-testid="link-account">
        <dt className="text-muted-foreground">{t("accountCompany")}</dt>
        <dd>{`${link.companyName} (${link.companyCode})`}</dd>
        <dt className="text-muted-foreground">{t("accountUser")}</dt>
        <dd className="break-all">{link.email}</dd>
      </dl>
      <p className="mb-4 text-sm text-muted-foreground">{t(link.landsOn === "phone" ? "landsOnPhone" : "landsOnConsole")}</p>
      <AuthForm formProps={formProps} error={formError}>
        {link.needsCode && (
          <Field label={t("code")} hint={t("resetCodeHint")} error={err(fields.code)}>
            <Input {...getInputProps(fields.code, { type: "text" })} inputMode="numeric" autoComplete="one-time-code" maxLength={12} autoFocus />
          </Field>
        )}
        <NewPasswordFields password={fields.password} confirm={fields.confirmPassword} err={err} autoFocus={!link.needsCode} />
        <input type="hidden" name="installationId" value={installation} />
        <SubmitAndBack label={t(link.purpose === "invite" ? "setPassword" : "submit")} busy={busy} />
      </AuthForm>
    </AuthCard>
  );
}
