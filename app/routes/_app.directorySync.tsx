import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { DirectoryGroups } from "~/components/directory/directory-groups";
import { IssuedTokenCard, type IssuedToken } from "~/components/directory/issued-token-card";
import { TokenForm } from "~/components/directory/token-form";
import { TokenTable } from "~/components/directory/token-table";
import { PageHeader } from "~/components/ui/page-header";
import { scimGroupLinkSchema, scimTokenFormSchema, scimTokenRowSchema } from "~/schemas/directory";
import { directoryLinkOptions, linkDirectoryGroup, listDirectoryGroups } from "~/services/scim-links.server";
import { createScimToken, listScimTokens, revokeScimToken, rotateScimToken } from "~/services/scim-tokens.server";
import { SCIM_BASE } from "~/services/scim/dispatch.server";
import { companyZone, requireModule, type Auth } from "~/utils/auth-guards.server";
import { getDb, nowMs } from "~/utils/db.server";
import { formAction, type FormReply } from "~/utils/form-action.server";
import { redirectWithMessage } from "~/utils/toast.server";

export const meta: MetaFunction = () => [{ title: "Directory sync" }];

/** Directory tokens and links are a super admin's (decision 0080); the services check again. */
async function requireDirectoryAdmin(request: Request, context: LoaderFunctionArgs["context"], action: "view" | "modify"): Promise<Auth> {
  const auth = await requireModule(request, context, "users", action);
  if (!auth.user.isSuperAdmin) throw new Response("Forbidden", { status: 403 });
  return auth;
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireDirectoryAdmin(request, context, "modify");
  const db = getDb(context);
  const [tokens, groups, options] = await Promise.all([listScimTokens(db, auth), listDirectoryGroups(db, auth), directoryLinkOptions(db, auth)]);
  return { tokens, groups, options, zone: companyZone(auth), scimUrl: `${new URL(request.url).origin}${SCIM_BASE}` };
}

const SCHEMAS = { create: scimTokenFormSchema, rotate: scimTokenRowSchema, revoke: scimTokenRowSchema, link: scimGroupLinkSchema } as const;
type ActionData = Partial<FormReply> & { intent?: string; issued?: IssuedToken };

export async function action({ request, context }: ActionFunctionArgs) {
  const auth = await requireDirectoryAdmin(request, context, "modify");
  const formData = await request.formData();
  const intent = String(formData.get("intent") ?? "");
  if (!(intent in SCHEMAS)) throw new Response("Unknown intent", { status: 400 });
  const db = getDb(context);
  const now = nowMs();
  const page = { request, context };
  const toastRefusal = { formData, onRefusal: (message: string) => redirectWithMessage(page, { ns: "directory", message, type: "error" }) };
  switch (intent as keyof typeof SCHEMAS) {
    case "create":
      return formAction(
        request,
        scimTokenFormSchema,
        async (v, submission) => {
          const r = await createScimToken(db, auth, v, now);
          return { intent, issued: { name: v.name, token: r.token }, result: submission.reply({ resetForm: true }) };
        },
        { formData, extra: { intent } },
      );
    case "rotate":
      return formAction(
        request,
        scimTokenRowSchema,
        async ({ id }) => {
          const r = await rotateScimToken(db, auth, id, now);
          const name = (await listScimTokens(db, auth)).find((x) => x.id === id)?.name ?? "";
          return { intent, issued: { name, token: r.token } };
        },
        toastRefusal,
      );
    case "revoke":
      return formAction(
        request,
        scimTokenRowSchema,
        async ({ id }) => redirectWithMessage(page, { ns: "directory", message: (await revokeScimToken(db, auth, id, now)).message }),
        toastRefusal,
      );
    case "link":
      return formAction(
        request,
        scimGroupLinkSchema,
        async (v) => redirectWithMessage(page, { ns: "directory", message: (await linkDirectoryGroup(db, auth, context.core, v, now)).message }),
        toastRefusal,
      );
  }
}

export default function DirectorySyncPage() {
  const { tokens, groups, options, zone, scimUrl } = useLoaderData<typeof loader>();
  const actionData = useActionData<ActionData>();
  const { t } = useTranslation("directory");
  return (
    <div className="grid gap-6">
      <PageHeader title={t("title")} description={t("description")} />
      <section className="grid gap-3" aria-labelledby="directory-tokens">
        <h2 id="directory-tokens" className="text-lg font-semibold">
          {t("tokens")}
        </h2>
        <p className="text-sm text-muted-foreground">
          {t("scimUrl")} <code className="font-mono break-all select-all">{scimUrl}</code>
        </p>
        {actionData?.issued && <IssuedTokenCard issued={actionData.issued} />}
        <TokenForm lastResult={actionData?.intent === "create" ? actionData.result : undefined} />
        <TokenTable tokens={tokens} zone={zone} />
      </section>
      <section className="grid gap-3" aria-labelledby="directory-groups">
        <h2 id="directory-groups" className="text-lg font-semibold">
          {t("groups")}
        </h2>
        <DirectoryGroups groups={groups} options={options} />
      </section>
    </div>
  );
}
