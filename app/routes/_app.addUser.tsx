import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { EkeyPanel } from "~/components/ekeys/ekey-panel";
import { PageHeader } from "~/components/ui/page-header";
import { loadPanelData } from "~/routes/user-ekey-panel.server";
import { EMPTY_USER, UserForm } from "~/components/users/user-form";
import { userFormSchema } from "~/schemas/users";
import { settingsOf } from "~/services/auth.server";
import { deliverQueued } from "~/services/deliver-queued.server";
import { customFields } from "~/services/custom-fields.server";
import { addUser, USER_MSG } from "~/services/users.server";
import { requireModule } from "~/utils/auth-guards.server";
import { getDb, nowMs } from "~/utils/db.server";
import { formAction } from "~/utils/form-action.server";
import { publicOrigin } from "~/utils/origin.server";
import { regionForCallingCode } from "~/utils/phone";
import { redirectWithMessage } from "~/utils/toast.server";

export const meta: MetaFunction = () => [{ title: "Add User" }];

// Routes match case-insensitively, so this page also answers the spec's /adduser.

export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireModule(request, context, "users", "add");
  const settings = await settingsOf(getDb(context), auth.company.id);
  // The country picker starts at the company's default country (settings, default_country_code).
  return {
    panel: await loadPanelData(context, auth, null),
    region: regionForCallingCode(settings?.defaultCountryCode ?? "001") ?? "US",
    fields: await customFields(getDb(context), auth),
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const auth = await requireModule(request, context, "users", "add");
  return formAction(request, userFormSchema, async (value) => {
    const env = context.cloudflare.env;
    const r = await addUser(getDb(context), auth, value, { origin: publicOrigin(env, request), now: nowMs() });
    if (r.invited) deliverQueued(env, (p) => context.cloudflare.ctx.waitUntil(p));
    return redirectWithMessage({ request, context }, { to: `/modifyUser?id=${r.id}`, ns: "users", message: r.invited ? USER_MSG.createdInvited : r.message });
  });
}

export default function AddUserPage() {
  const { panel, region, fields } = useLoaderData<typeof loader>();
  const initial = useMemo(() => ({ ...EMPTY_USER, countryCode: region, sendInvite: true }), [region]);
  const { t } = useTranslation("users");
  return (
    <div className="grid gap-6">
      <PageHeader title={t("addTitle")} back={{ to: "/users", label: t("backToUsers") }} />
      <UserForm initial={initial} customFields={fields} />
      <EkeyPanel data={panel} disabled />
    </div>
  );
}
