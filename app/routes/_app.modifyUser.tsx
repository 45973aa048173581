import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/cloudflare";
import { Form, Link, useLoaderData, useNavigation } from "@remix-run/react";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { EkeyPanel } from "~/components/ekeys/ekey-panel";
import { Alert, AlertDescription, AlertTitle } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { PageHeader } from "~/components/ui/page-header";
import { EraserIcon, TrashIcon } from "~/components/users/icons";
import { loadPanelData } from "~/routes/user-ekey-panel.server";
import { UserForm, type UserFormValues } from "~/components/users/user-form";
import { keyAssignmentSchema } from "~/schemas/ekeys";
import { twoFactorChannelSchema, userFormSchema } from "~/schemas/users";
import { TwoFactorChannelForm } from "~/components/users/two-factor-channel-form";
import { AuthenticatorCard } from "~/components/users/authenticator-card";
import { hasAuthenticator, resetAuthenticator } from "~/services/authenticator.server";
import { PasskeysCard } from "~/components/users/passkeys-card";
import { listPasskeys, resetPasskeys } from "~/services/passkeys.server";
import { formatDateTime } from "~/utils/format";
import { nationalForField, regionForCallingCode, regionOf } from "~/utils/phone";
import { assignKey, removeKey } from "~/services/ekeys.server";
import { deliverQueued } from "~/services/deliver-queued.server";
import { eraseUserActivity } from "~/services/activity-erasure.server";
import * as users from "~/services/users.server";
import { companyZone, requireAuth, requireModule } from "~/utils/auth-guards.server";
import { getDb, nowMs } from "~/utils/db.server";
import { ServiceError } from "~/utils/errors.server";
import { formAction, type FormReply } from "~/utils/form-action.server";
import { publicOrigin } from "~/utils/origin.server";
import type { Action } from "~/utils/permissions";
import { can } from "~/utils/permissions";
import { idFromUrl, loadRecord } from "~/utils/record-from-url.server";
import { redirectWithMessage } from "~/utils/toast.server";

export const meta: MetaFunction = () => [{ title: "Modify User" }];

const idOf = (request: Request) => Number(new URL(request.url).searchParams.get("id"));

export async function loader({ request, context }: LoaderFunctionArgs) {
  // Account Details: one's own record, read-only, for a user without the users right (platform admins too).
  const self = await requireAuth(request, context);
  if (idFromUrl(request) === self.user.id && !can(self.permissions, "users")) {
    return {
      user: await users.getOwnAccount(getDb(context), self),
      panel: null,
      can: NO_RIGHTS,
      isSelf: true,
      ownAccountOnly: true,
      zone: companyZone(self),
      authenticatorOn: await hasAuthenticator(getDb(context), self.user.id),
      passkeyCount: (await listPasskeys(getDb(context), self.user.id)).length,
    };
  }
  const auth = await requireModule(request, context, "users");
  // Without an id (or with one of another company) the page goes back to the list.
  return loadRecord(request, { list: "/users" }, async (id) => ({
    user: await users.getUserDetails(getDb(context), auth, id),
    panel: await loadPanelData(context, auth, id),
    can: {
      modify: can(auth.permissions, "users", "modify"),
      delete: can(auth.permissions, "users", "delete"),
      // A Super Admin privilege (spec part 1 §6); the service refuses anyone else.
      sendResetLink: can(auth.permissions, "users", "modify") && auth.user.isSuperAdmin,
      // Removing someone's authenticator app is a Super Admin privilege too (decision 0120).
      resetAuthenticator: can(auth.permissions, "users", "modify") && auth.user.isSuperAdmin,
    },
    isSelf: id === auth.user.id,
    ownAccountOnly: false,
    zone: companyZone(auth),
    authenticatorOn: await hasAuthenticator(getDb(context), id),
    passkeyCount: (await listPasskeys(getDb(context), id)).length,
  }));
}

const NO_RIGHTS = { modify: false, delete: false, sendResetLink: false, resetAuthenticator: false };

/** The right each intent needs (the services check it again). */
const INTENT_RIGHT: Record<string, Action> = {
  save: "modify",
  approve: "modify",
  forgetDevice: "modify",
  sendResetLink: "modify",
  resetAuthenticator: "modify",
  resetPasskeys: "modify",
  resendInvite: "modify",
  assign: "view",
  delete: "delete",
  eraseActivity: "delete",
  removeKey: "delete",
};

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.formData();
  const intent = String(form.get("intent"));
  // One's own sign-in code channel: any signed-in user, on their own page only (no users right needed).
  if (intent === "twoFactorChannel") {
    const self = await requireAuth(request, context);
    if (idOf(request) !== self.user.id) throw new Response("Forbidden", { status: 403 });
    return formAction(
      request,
      twoFactorChannelSchema,
      async (value) => redirectWithMessage({ request, context }, { ns: "users", message: (await users.setTwoFactorChannel(getDb(context), self, value, nowMs())).message }),
      { formData: form },
    );
  }
  const auth = await requireModule(request, context, "users", INTENT_RIGHT[intent] ?? "modify");
  // Sending a reset link is a Super Admin privilege (spec part 1 §6), refused as requireModule refuses.
  if (intent === "sendResetLink" && !auth.user.isSuperAdmin) throw new Response("Forbidden", { status: 403 });
  const db = getDb(context);
  const env = context.cloudflare.env;
  const id = idOf(request);
  const now = nowMs();
  const ctx = { origin: publicOrigin(env, request), now };
  const here = `/modifyUser?id=${id}`;
  const done = (message: string, to = here) => redirectWithMessage({ request, context }, { to, ns: "users", message });
  if (intent === "save")
    return formAction(request, userFormSchema, async (value) => done((await users.modifyUser(db, auth, id, value, now, { replaceCustomFields: true })).message), {
      formData: form,
    });
  if (intent === "assign") {
    // The key's owner is the page's user, whatever the post says.
    form.set("userId", String(id));
    return formAction(
      request,
      keyAssignmentSchema,
      async (value, submission) => {
        const r = await assignKey(db, auth, context.core, value, now);
        return { result: submission.reply({ resetForm: true }), message: r.message } satisfies FormReply;
      },
      { formData: form },
    );
  }
  try {
    switch (intent) {
      case "delete":
        return done((await users.deleteUser(db, auth, id, now)).message, "/users");
      case "eraseActivity":
        return done((await eraseUserActivity(db, env, auth, id, now)).message);
      case "approve":
        return done((await users.setFlagged(db, auth, { userId: id, isFlagged: false }, now)).message);
      case "forgetDevice": {
        const r = await users.forgetDevice(db, auth, id, now);
        return redirectWithMessage({ request, context }, { to: here, ns: "users", message: r.message, type: r.forgotten ? "success" : "info" });
      }
      case "sendResetLink": {
        const r = await users.sendResetLink(db, auth, id, ctx);
        deliverQueued(context.cloudflare.env, (p) => context.cloudflare.ctx.waitUntil(p));
        return done(r.message);
      }
      case "resetAuthenticator":
        return redirectWithMessage({ request, context }, { to: here, ns: "authenticator", message: (await resetAuthenticator(db, auth, id, now)).message });
      case "resetPasskeys":
        return redirectWithMessage({ request, context }, { to: here, ns: "passkeys", message: (await resetPasskeys(db, auth, id, now)).message });
      case "resendInvite": {
        const r = await users.resendInvite(db, auth, id, ctx);
        deliverQueued(context.cloudflare.env, (p) => context.cloudflare.ctx.waitUntil(p));
        return done(r.message);
      }
      case "removeKey": {
        const r = await removeKey(db, auth, String(form.get("entryId")), form.get("kind") === "group" ? "group" : "device", now);
        return done(r.message);
      }
      default:
        throw new Response("Unknown intent", { status: 400 });
    }
  } catch (e) {
    if (!(e instanceof ServiceError)) throw e;
    if (e.status === 404) throw redirect("/users");
    return redirectWithMessage({ request, context }, { to: here, ns: "users", message: e.message, type: "error" });
  }
}

function ActionButton({ intent, children }: { intent: string; children: React.ReactNode }) {
  const navigation = useNavigation();
  return (
    <Form method="post">
      <input type="hidden" name="intent" value={intent} />
      <Button type="submit" variant="outline" size="sm" loading={navigation.formData?.get("intent") === intent}>
        {children}
      </Button>
    </Form>
  );
}

/** A header action that asks first: what it does to whom, then posts its intent. */
function ConfirmAction({ intent, name }: { intent: "forgetDevice" | "sendResetLink"; name: string }) {
  const { t } = useTranslation("users");
  return (
    <ConfirmDialog
      trigger={
        <Button variant="outline" size="sm" data-intent={intent}>
          {t(intent)}
        </Button>
      }
      title={t(`${intent}Title`)}
      description={t(`${intent}Description`, { name })}
      fields={{ intent }}
      confirmLabel={t(intent)}
      cancelLabel={t("cancel")}
    />
  );
}

export default function ModifyUserPage() {
  const { user, panel, can, isSelf, ownAccountOnly, zone, authenticatorOn, passkeyCount } = useLoaderData<typeof loader>();
  const { t, i18n } = useTranslation("users");
  const initial = useMemo<UserFormValues>(
    () => ({
      firstName: user.firstName,
      lastName: user.lastName,
      displayName: user.displayName,
      email: user.email,
      countryCode: regionOf(user.phoneNumber) ?? regionForCallingCode(user.countryCode) ?? "US",
      cell: nationalForField(user.phoneNumber),
      userNotes: user.notes,
      isSOInterrupt: user.isSoInterrupt,
      isInstaller: user.isInstaller,
      isSentinel: user.isSentinel,
      isSuperAdmin: user.isSuperAdmin,
      isFob: user.isFob,
      isInactive: user.isInactive,
      customFields: user.customFields,
    }),
    [user],
  );

  return (
    <div className="grid gap-6">
      {user.isFlagged && (
        <Alert
          variant="destructive"
          actions={
            can.modify && (
              <div className="flex gap-2">
                <ActionButton intent="approve">{t("approve")}</ActionButton>
                {user.supportTicketId != null && (
                  <Button asChild variant="outline" size="sm">
                    <Link to={`/supportTicketDetails?id=${user.supportTicketId}`}>{t("openTicket")}</Link>
                  </Button>
                )}
              </div>
            )
          }
        >
          <AlertTitle>{t("flaggedTitle")}</AlertTitle>
          <AlertDescription>{t("flaggedText")}</AlertDescription>
        </Alert>
      )}
      {user.passwordResetSecurity === "admin" && user.passwordResetRequestedAt != null && (
        <Alert variant="warning" data-testid="reset-request" actions={can.sendResetLink && <ActionButton intent="sendResetLink">{t("approveReset")}</ActionButton>}>
          <AlertTitle>{t("resetRequestedTitle")}</AlertTitle>
          <AlertDescription>{t("resetRequestedText", { when: formatDateTime(user.passwordResetRequestedAt, zone, i18n.language) })}</AlertDescription>
        </Alert>
      )}
      <PageHeader
        title={user.displayName || t("modifyTitle")}
        actions={
          <>
            {can.modify && !user.isMultiPhoneLogin && <ConfirmAction intent="forgetDevice" name={user.displayName} />}
            {can.sendResetLink && user.passwordResetSecurity === "admin" && <ConfirmAction intent="sendResetLink" name={user.displayName} />}
            {can.modify && user.accountSetupPending && <ActionButton intent="resendInvite">{t("resendInvite")}</ActionButton>}
            {can.delete && !isSelf && (
              <ConfirmDialog
                trigger={
                  <Button variant="outline" size="sm" aria-label={t("eraseActivityLabel", { name: user.displayName })}>
                    <EraserIcon /> {t("eraseActivity")}
                  </Button>
                }
                title={t("eraseTitle")}
                description={t("eraseDescription", { name: user.displayName })}
                fields={{ intent: "eraseActivity" }}
                confirmLabel={t("eraseActivity")}
                cancelLabel={t("cancel")}
                destructive
              />
            )}
            {can.delete && !isSelf && (
              <ConfirmDialog
                trigger={
                  <Button variant="outline" size="sm" aria-label={t("deleteUser", { name: user.displayName })}>
                    <TrashIcon /> {t("delete")}
                  </Button>
                }
                title={t("deleteTitle")}
                description={t("deleteDescription", { name: user.displayName })}
                fields={{ intent: "delete" }}
                confirmLabel={t("delete")}
                cancelLabel={t("cancel")}
                destructive
              />
            )}
            {!ownAccountOnly && (
              <Button asChild variant="ghost" size="sm">
                <Link to="/users">{t("backToUsers")}</Link>
              </Button>
            )}
          </>
        }
      />
      <UserForm key={user.id} initial={initial} disabled={!can.modify} customFields={user.fields} />
      <TwoFactorChannelForm
        key={`channel-${user.id}-${user.twoFactorChannel}`}
        channel={user.twoFactorChannel}
        canReceiveTexts={user.canReceiveTexts}
        phone={user.phoneNumber}
        editable={isSelf}
      />
      <AuthenticatorCard on={authenticatorOn} isSelf={isSelf} canReset={can.resetAuthenticator} name={user.displayName} />
      <PasskeysCard count={passkeyCount} isSelf={isSelf} canReset={can.resetAuthenticator} name={user.displayName} />
      {panel && <EkeyPanel key={`ekeys-${user.id}`} data={panel} />}
    </div>
  );
}
