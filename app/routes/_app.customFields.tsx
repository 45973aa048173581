import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { customFieldColumns } from "~/components/custom-fields/columns";
import { ListPage } from "~/components/data-table/list-page";
import { tablePage } from "~/components/data-table/params";
import { CUSTOM_FIELD_SORTS, deleteCustomField, listCustomFields } from "~/services/custom-fields.server";
import { companyZone, requireModule } from "~/utils/auth-guards.server";
import { getDb, nowMs } from "~/utils/db.server";
import { can } from "~/utils/permissions";
import { rowAction, rowSchema } from "~/utils/row-action.server";

export const meta: MetaFunction = () => [{ title: "Custom fields" }];

/** Custom fields for users (issue 32, decision 0095), kept with the company's settings. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireModule(request, context, "company_settings");
  const page = await tablePage(request.url, { defaultSort: "position", sortable: Object.keys(CUSTOM_FIELD_SORTS) }, (params, slice) =>
    listCustomFields(getDb(context), auth, slice),
  );
  const p = auth.permissions;
  return {
    ...page,
    timeZone: companyZone(auth),
    can: { add: can(p, "company_settings", "add"), modify: can(p, "company_settings", "modify"), delete: can(p, "company_settings", "delete") },
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const auth = await requireModule(request, context, "company_settings", "delete");
  return rowAction(request, context, "customFields", rowSchema, async ({ id }) => (await deleteCustomField(getDb(context), auth, id, nowMs())).message);
}

export default function CustomFieldsPage() {
  const { rows, total, params, can, timeZone } = useLoaderData<typeof loader>();
  const { t } = useTranslation("customFields");
  const columns = useMemo(() => customFieldColumns(t, { canModify: can.modify, canDelete: can.delete, timeZone }), [t, can.modify, can.delete, timeZone]);
  return (
    <ListPage
      title={t("title")}
      description={t("description")}
      add={can.add && { to: "/addCustomField", label: t("add") }}
      columns={columns}
      page={{ rows, total, params }}
      empty={t("empty")}
    />
  );
}
