import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { data } from "@remix-run/cloudflare";
import { useActionData, useLoaderData, useNavigate, useSearchParams } from "@remix-run/react";
import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { ListPage } from "~/components/data-table/list-page";
import { tablePage } from "~/components/data-table/params";
import { selectColumn } from "~/components/data-table/select-column";
import { LinkButton } from "~/components/ui/link-button";
import { BulkBar } from "~/components/users/bulk-bar";
import { BulkResults } from "~/components/users/bulk-results";
import { chosenFields, ColumnChooser } from "~/components/users/column-chooser";
import { UserFilterForm } from "~/components/users/user-filter-form";
import { userColumns } from "~/components/users/columns";
import { bulkUsersSchema, type BulkRowResult, type BulkUserAction } from "~/schemas/bulk";
import { fieldFilterParams } from "~/schemas/custom-fields";
import { ALL_DAYS } from "~/schemas/ekeys";
import { userFiltersFromUrl } from "~/schemas/search";
import { deliverQueued } from "~/services/deliver-queued.server";
import { listRoles } from "~/services/roles.server";
import { giveKeyToUsers, inviteUsers, keyTargets, setUsersInactive } from "~/services/users-bulk.server";
import { deleteUser, listUsers, USER_SORTS } from "~/services/users.server";
import { companyZone, requireModule } from "~/utils/auth-guards.server";
import { getDb, nowMs } from "~/utils/db.server";
import { formAction } from "~/utils/form-action.server";
import { publicOrigin } from "~/utils/origin.server";
import { can } from "~/utils/permissions";
import { rowAction, rowSchema } from "~/utils/row-action.server";

export const meta: MetaFunction = () => [{ title: "Users" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireModule(request, context, "users");
  const db = getDb(context);
  const url = new URL(request.url);
  const filters = userFiltersFromUrl(url.searchParams);
  // Custom field filters (`field.<key>=`, decision 0095): one that names no field of the company, or a value it cannot hold, is ignored.
  const fieldFilters = fieldFilterParams(url.searchParams);
  const [page, targets, roles] = await Promise.all([
    tablePage(url, { defaultSort: "displayName", sortable: Object.keys(USER_SORTS) }, (_, slice) =>
      listUsers(db, auth, { includeInactive: false, filters, fieldFilters, ...slice }),
    ),
    keyTargets(db, auth),
    can(auth.permissions, "role") ? listRoles(db, auth) : Promise.resolve([]),
  ]);
  return {
    ...page,
    filters,
    targets,
    roles: roles.map((r) => ({ id: r.id, title: r.title })),
    canBulk: can(auth.permissions, "users", "add") || can(auth.permissions, "users", "modify"),
    timeZone: companyZone(auth),
    canAdd: can(auth.permissions, "users", "add"),
    canImport: can(auth.permissions, "users", "add") || can(auth.permissions, "users", "modify"),
    canDelete: can(auth.permissions, "users", "delete"),
    selfId: auth.user.id,
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await request.clone().formData();
  if (formData.get("intent") !== "bulk") {
    const auth = await requireModule(request, context, "users", "delete");
    return rowAction(request, context, "users", rowSchema, async ({ id }) => (await deleteUser(getDb(context), auth, id, nowMs())).message);
  }
  // Each bulk service checks the right its action needs (add for keys, modify for the rest).
  const auth = await requireModule(request, context, "users");
  const db = getDb(context);
  const env = context.cloudflare.env;
  return formAction(
    request,
    bulkUsersSchema,
    async (v, submission) => {
      const now = nowMs();
      const rows =
        v.action === "giveGroupKey" || v.action === "giveDeviceKey"
          ? await giveKeyToUsers(db, auth, context.core, { ...bulkKey(v), userIds: v.ids }, now)
          : v.action === "invite"
            ? await inviteUsers(db, auth, v.ids, { origin: publicOrigin(env, request), now })
            : await setUsersInactive(db, auth, { userIds: v.ids, isInactive: v.action === "deactivate" }, now);
      if (v.action === "invite") deliverQueued(env, (p) => context.cloudflare.ctx.waitUntil(p));
      return data({ result: submission.reply({ resetForm: true }), bulk: { action: v.action, rows } });
    },
    { formData },
  );
}

/** A bulk key is a full-access device key or a group key (the group's own schedule), as the assign form gives by default. */
function bulkKey(v: { action: string; groupId?: number; deviceId?: number }) {
  const group = v.action === "giveGroupKey";
  return {
    keyId: (group ? v.groupId : v.deviceId) ?? null,
    type: group ? ("group" as const) : ("device" as const),
    accessType: group ? ("custom_access" as const) : ("full_access" as const),
    startDate: null,
    startTime: null,
    endDate: null,
    endTime: null,
    isNeverEnd: true,
    isAllDay: true,
    days: ALL_DAYS,
    zone: null,
    onHolidays: "ignore" as const,
    holidayCalendarId: null,
  };
}

export default function UsersPage() {
  const { rows, total, params, filters, targets, roles, canBulk, timeZone, canAdd, canImport, canDelete, selfId, fields, fieldFilters } = useLoaderData<typeof loader>();
  const actionData = useActionData<{ bulk?: { action: BulkUserAction; rows: BulkRowResult[] } }>();
  const { t, i18n } = useTranslation("users");
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const [selected, setSelected] = useState<Set<number>>(() => new Set());
  // A finished bulk action clears the selection; its results stay on screen.
  useEffect(() => {
    if (actionData?.bulk) setSelected(new Set());
  }, [actionData]);
  const cols = searchParams.get("cols");
  const shown = useMemo(() => chosenFields(fields, cols), [fields, cols]);
  const columns = useMemo(() => {
    const cols = userColumns(t, { canDelete, timeZone, selfId, language: i18n.language, customFields: shown });
    if (!canBulk) return cols;
    const select = selectColumn<(typeof rows)[number]>({
      selected,
      onChange: setSelected,
      idOf: (u) => u.id,
      rowLabel: (u) => t("bulk.selectRow", { name: u.displayName }),
      pageLabel: t("bulk.selectPage"),
    });
    return [select, ...cols];
  }, [t, i18n.language, canDelete, timeZone, selfId, canBulk, selected, shown]);

  return (
    <ListPage
      title={t("title")}
      add={canAdd && { to: "/addUser", label: t("addUser") }}
      actions={
        <>
          <ColumnChooser fields={fields} />
          {/* Holders of the users module see every visitor pass (decision 0096). */}
          <LinkButton variant="outline" to="/visitorPasses">
            {t("visitorPasses")}
          </LinkButton>
          <LinkButton variant="outline" to="/resources/users-csv" reloadDocument download="users.csv">
            {t("export")}
          </LinkButton>
          {canImport && (
            <LinkButton variant="outline" to="/importUsers">
              {t("import")}
            </LinkButton>
          )}
        </>
      }
      columns={columns}
      page={{ rows, total, params }}
      onRowClick={(u) => navigate(`/modifyUser?id=${u.id}`)}
      empty={filters.q || filters.flag || filters.roleId || filters.groupId || Object.keys(fieldFilters).length ? t("noMatches") : t("empty")}
    >
      <UserFilterForm filters={filters} fieldFilters={fieldFilters} fields={fields} groups={targets.groups} roles={roles} searchParams={searchParams} />
      {selected.size > 0 && <BulkBar ids={[...selected]} groups={targets.groups} devices={targets.devices} onClear={() => setSelected(new Set())} />}
      {actionData?.bulk && <BulkResults action={actionData.bulk.action} rows={actionData.bulk.rows} />}
    </ListPage>
  );
}
