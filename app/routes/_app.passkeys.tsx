import { getInputProps } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, useFetcher, useLoaderData, useNavigation, useSubmit } from "@remix-run/react";
import { startRegistration, type PublicKeyCredentialCreationOptionsJSON } from "@simplewebauthn/browser";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { usePageForm } from "~/components/forms/use-page-form";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { LinkButton } from "~/components/ui/link-button";
import { PageHeader } from "~/components/ui/page-header";
import { passkeyNameSchema, passkeyRegisterSchema, passkeyRemoveSchema, passkeyRenameSchema } from "~/schemas/passkeys";
import * as passkeys from "~/services/passkeys.server";
import { requireAuth } from "~/utils/auth-guards.server";
import { getDb, nowMs } from "~/utils/db.server";
import { ServiceError } from "~/utils/errors.server";
import { formAction } from "~/utils/form-action.server";
import { redirectWithMessage } from "~/utils/toast.server";

export const meta: MetaFunction = () => [{ title: "Passkeys" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireAuth(request, context);
  return { passkeys: await passkeys.listPasskeys(getDb(context), auth.user.id), enrolmentOnly: Boolean(auth.session.mfaEnrolmentOnly), zone: auth.company.zone ?? "UTC" };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const auth = await requireAuth(request, context);
  const db = getDb(context);
  const env = context.cloudflare.env;
  const formData = await request.formData();
  const intent = formData.get("intent");
  const back = (message: string, type: "success" | "error" = "success", to?: string) => redirectWithMessage({ request, context }, { ns: "passkeys", message, type, to });
  const onRefusal = (message: string) => back(message, "error");
  if (intent === "options") {
    try {
      return { options: await passkeys.registrationOptions(db, env, request, auth, nowMs()) };
    } catch (e) {
      if (e instanceof ServiceError) return { error: e.message };
      throw e;
    }
  }
  if (intent === "register")
    return formAction(
      request,
      passkeyRegisterSchema,
      async (value) => {
        const r = await passkeys.registerPasskey(db, env, request, auth, { name: value.name, response: JSON.parse(value.response) }, nowMs());
        // A session the MFA policy held to enrolment is a full one now: on to the console.
        return back(r.message, "success", auth.session.mfaEnrolmentOnly ? "/" : undefined);
      },
      { formData, onRefusal },
    );
  if (intent === "rename")
    return formAction(request, passkeyRenameSchema, async (v) => back((await passkeys.renamePasskey(db, auth, v.id, v.name)).message), { formData, onRefusal });
  if (intent === "remove")
    return formAction(request, passkeyRemoveSchema, async (v) => back((await passkeys.removeOwnPasskey(db, auth, v.id, nowMs())).message), { formData, onRefusal });
  throw new Response("Unknown intent", { status: 400 });
}

type OptionsReply = { options?: PublicKeyCredentialCreationOptionsJSON; error?: string };

/** "Add a passkey": a name, then the browser's own passkey dialog (user verification required), then the server's verification. */
function AddPasskey() {
  const { t } = useTranslation("passkeys");
  const options = useFetcher<OptionsReply>();
  const submit = useSubmit();
  const navigation = useNavigation();
  const pendingName = useRef<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const { fields, err, formProps } = usePageForm({
    id: "passkey-add",
    schema: passkeyNameSchema,
    ns: "passkeys",
    shouldValidate: "onSubmit",
    onSubmit: (event, { formData }) => {
      event.preventDefault();
      setProblem(null);
      pendingName.current = String(formData.get("name")).trim();
      options.submit({ intent: "options" }, { method: "post" });
    },
  });
  useEffect(() => {
    const name = pendingName.current;
    if (options.state !== "idle" || !options.data || name == null) return;
    pendingName.current = null;
    if (!options.data.options) {
      setProblem(t(options.data.error ?? "The passkey could not be verified"));
      return;
    }
    startRegistration({ optionsJSON: options.data.options })
      .then((response) => submit({ intent: "register", name, response: JSON.stringify(response) }, { method: "post" }))
      .catch(() => setProblem(t("browserRefused")));
  }, [options.state, options.data, submit, t]);
  const busy = options.state !== "idle" || navigation.formData?.get("intent") === "register";
  return (
    <Form method="post" {...formProps} className="grid gap-4 sm:max-w-sm">
      {problem && (
        <p role="alert" className="text-sm font-medium text-destructive" data-testid="passkey-problem">
          {problem}
        </p>
      )}
      <Field label={t("nameLabel")} error={err(fields.name)} hint={t("nameHint")}>
        <Input {...getInputProps(fields.name, { type: "text" })} maxLength={60} autoComplete="off" />
      </Field>
      <Button type="submit" className="h-auto w-fit max-w-full whitespace-normal" loading={busy}>
        {t("add")}
      </Button>
    </Form>
  );
}

/** A passkey's row: its name (renamed in place), when added and last used, and removal after a confirmation. */
function PasskeyRow({ id, name, createdAt, lastUsedAt, zone }: { id: number; name: string; createdAt: number; lastUsedAt: number | null; zone: string }) {
  const { t, i18n } = useTranslation("passkeys");
  const [renaming, setRenaming] = useState(false);
  const when = (ms: number) => new Intl.DateTimeFormat(i18n.language, { dateStyle: "medium", timeStyle: "short", timeZone: zone }).format(ms);
  return (
    <li className="flex flex-wrap items-center justify-between gap-3 border-b py-3 last:border-b-0" data-testid="passkey-row">
      <div className="min-w-0">
        {renaming ? (
          <Form method="post" className="flex flex-wrap items-center gap-2" onSubmit={() => setRenaming(false)}>
            <input type="hidden" name="intent" value="rename" />
            <input type="hidden" name="id" value={id} />
            <Input name="name" defaultValue={name} maxLength={60} aria-label={t("nameLabel")} className="w-56" required />
            <Button type="submit" size="sm">
              {t("save")}
            </Button>
            <Button type="button" size="sm" variant="ghost" onClick={() => setRenaming(false)}>
              {t("cancel")}
            </Button>
          </Form>
        ) : (
          <p className="break-words font-medium" data-testid="passkey-name">
            {name}
          </p>
        )}
        <p className="text-sm text-muted-foreground">
          {t("added", { when: when(createdAt) })} · {lastUsedAt ? t("lastUsed", { when: when(lastUsedAt) }) : t("neverUsed")}
        </p>
      </div>
      {!renaming && (
        <div className="flex gap-2">
          <Button type="button" size="sm" variant="outline" onClick={() => setRenaming(true)}>
            {t("rename")}
          </Button>
          <ConfirmDialog
            trigger={
              <Button size="sm" variant="outline" aria-label={t("removeNamed", { name })}>
                {t("remove")}
              </Button>
            }
            title={t("removeTitle")}
            description={t("removeDescription", { name })}
            fields={{ intent: "remove", id }}
            confirmLabel={t("remove")}
            cancelLabel={t("cancel")}
            destructive
          />
        </div>
      )}
    </li>
  );
}

export default function PasskeysPage() {
  const { passkeys: keys, enrolmentOnly, zone } = useLoaderData<typeof loader>();
  const { t } = useTranslation("passkeys");
  return (
    <div className="mx-auto grid max-w-2xl gap-6">
      <PageHeader title={t("title")} />
      <p className="text-sm text-muted-foreground">{t("intro")}</p>
      {enrolmentOnly && (
        <p role="status" className="rounded-md border bg-muted/60 px-3 py-2 text-sm" data-testid="enrolment-required">
          {t("enrolFirst")}
        </p>
      )}
      <Card>
        <CardHeader>
          <CardTitle>{t("yourPasskeys")}</CardTitle>
        </CardHeader>
        <CardContent>
          {keys.length === 0 ? (
            <p className="text-sm" data-testid="no-passkeys">
              {t("none")}
            </p>
          ) : (
            <ul>
              {keys.map((k) => (
                <PasskeyRow key={k.id} {...k} zone={zone} />
              ))}
            </ul>
          )}
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>{t("addTitle")}</CardTitle>
        </CardHeader>
        <CardContent>
          <AddPasskey />
        </CardContent>
      </Card>
      <LinkButton variant="link" size="inline" to="/authenticatorApp" className="w-fit">
        {t("orAuthenticator")}
      </LinkButton>
    </div>
  );
}
