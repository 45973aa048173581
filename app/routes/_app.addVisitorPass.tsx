import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { PageHeader } from "~/components/ui/page-header";
import { PassForm, type PassFormOptions } from "~/components/visitor-passes/pass-form";
import { getLanguage } from "~/i18n/i18next.server";
import { passSchema } from "~/schemas/visitor-passes";
import { settingsOf } from "~/services/auth.server";
import { deliverQueued } from "~/services/deliver-queued.server";
import { assertPassUser, createPass, passChoices } from "~/services/visitor-passes.server";
import { companyZone, requireAuth, type Auth } from "~/utils/auth-guards.server";
import { getDb, nowMs, type Db } from "~/utils/db.server";
import { ServiceError } from "~/utils/errors.server";
import { formAction } from "~/utils/form-action.server";
import { publicOrigin } from "~/utils/origin.server";
import { regionForCallingCode } from "~/utils/phone";
import { redirectWithMessage } from "~/utils/toast.server";

export const meta: MetaFunction = () => [{ title: "Invite a guest" }];

/** Hosts only (who may add users, or of a role the visitor rules name): anyone else gets a 403. */
async function requireHost(db: Db, auth: Auth) {
  try {
    await assertPassUser(db, auth, { hosting: true });
  } catch (e) {
    if (e instanceof ServiceError && e.status === 403) throw new Response("Forbidden", { status: 403 });
    throw e;
  }
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireAuth(request, context);
  const db = getDb(context);
  await requireHost(db, auth);
  const [choices, settings, language] = await Promise.all([passChoices(db, auth, { bounded: true }), settingsOf(db, auth.company.id), getLanguage(request)]);
  const bound = choices.rules.deviceGroupId;
  const zone = companyZone(auth);
  const options: PassFormOptions = {
    doors: choices.doors,
    groups: choices.groups,
    hosts: choices.hosts.length ? choices.hosts : null,
    me: { id: auth.user.id, name: auth.user.displayName },
    boundGroup: bound == null ? null : (choices.groups.find((g) => g.id === bound)?.label ?? null),
    maxDays: choices.rules.maxDays,
    timeZone: zone,
    // The phone's country starts at the company's default, as the user form's does.
    region: regionForCallingCode(settings?.defaultCountryCode ?? "001") ?? "US",
    today: context.core.formatLocal(nowMs(), zone).slice(0, 10),
    language,
  };
  return { options };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const auth = await requireAuth(request, context);
  const db = getDb(context);
  await requireHost(db, auth);
  return formAction(request, passSchema, async (value) => {
    const env = context.cloudflare.env;
    const r = await createPass(db, auth, value, { now: nowMs(), origin: publicOrigin(env, request), core: context.core });
    deliverQueued(env, (p) => context.cloudflare.ctx.waitUntil(p));
    return redirectWithMessage({ request, context }, { to: "/visitorPasses", ns: "visitorPasses", message: r.message });
  });
}

export default function AddVisitorPassPage() {
  const { options } = useLoaderData<typeof loader>();
  const { t } = useTranslation("visitorPasses");
  return (
    <div className="grid gap-6">
      <PageHeader title={t("addTitle")} description={t("addDescription")} back={{ to: "/visitorPasses", label: t("backToList") }} />
      <PassForm options={options} />
    </div>
  );
}
