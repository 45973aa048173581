import { StateFilter } from "~/components/data-table/state-filter";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { ListPage } from "~/components/data-table/list-page";
import { tablePage } from "~/components/data-table/params";
import { LinkButton } from "~/components/ui/link-button";
import { passColumns, type PassListRow } from "~/components/visitor-passes/columns";
import { PASS_STATES, type PassState } from "~/schemas/visitor-passes";
import { listPasses, passDoorNames, revokePass } from "~/services/visitor-passes.server";
import { mayHost, passRules } from "~/utils/visitor-pass-rules.server";
import { companyZone, requireAuth } from "~/utils/auth-guards.server";
import { getDb, nowMs } from "~/utils/db.server";
import { ServiceError } from "~/utils/errors.server";
import { can } from "~/utils/permissions";
import { rowAction, rowSchema } from "~/utils/row-action.server";

export const meta: MetaFunction = () => [{ title: "Visitor passes" }];

const stateOf = (v: string | null): PassState | undefined => ((PASS_STATES as readonly string[]).includes(v ?? "") ? (v as PassState) : undefined);

/**
 * Visitor passes (issue 32, decision 0096), newest first, filtered by `?state=`: every pass for holders
 * of the users module, a host's own otherwise. Anyone else gets a 403 (the service's own rule).
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireAuth(request, context);
  const db = getDb(context);
  const state = stateOf(new URL(request.url).searchParams.get("state"));
  const now = nowMs();
  try {
    const page = await tablePage(request.url, { defaultSort: "-createdAt", sortable: [] }, (params) =>
      listPasses(db, context.core, auth, { state, page: params.page, pageSize: params.pageSize }, now),
    );
    const [names, rules] = await Promise.all([
      passDoorNames(
        db,
        auth,
        page.rows.flatMap((r) => r.deviceIds),
      ),
      passRules(db, auth.company.id),
    ]);
    const revokeAny = can(auth.permissions, "users", "delete");
    const rows: PassListRow[] = page.rows.map((r) => ({
      id: r.id,
      state: r.state,
      guestName: r.guestName,
      guestEmail: r.guestEmail,
      guestPhone: r.guestPhone,
      hostName: r.hostName,
      doors: r.deviceIds.map((id) => names[id] ?? `#${id}`),
      groupName: r.groupName,
      oneEntry: r.oneEntry,
      startDate: r.startDate,
      endDate: r.endDate,
      startTime: r.startTime,
      endTime: r.endTime,
      phoneBound: r.phoneBound,
      firstEntryAt: r.firstEntryAt,
      canRevoke: (r.state === "active" || r.state === "upcoming") && (revokeAny || r.hostUserId === auth.user.id),
    }));
    return {
      rows,
      total: page.total,
      params: page.params,
      state: state ?? "",
      timeZone: companyZone(auth),
      can: { invite: mayHost(auth, rules), rules: can(auth.permissions, "company_settings", "modify") },
    };
  } catch (e) {
    if (e instanceof ServiceError && e.status === 403) throw new Response("Forbidden", { status: 403 });
    throw e;
  }
}

/** Revoke (`intent=revoke`, the pass id): back to the list with a toast; the service checks who may. */
export async function action({ request, context }: ActionFunctionArgs) {
  const auth = await requireAuth(request, context);
  return rowAction(request, context, "visitorPasses", rowSchema, async ({ id }) => (await revokePass(getDb(context), auth, id, nowMs())).message);
}

export default function VisitorPassesPage() {
  const { rows, total, params, state, timeZone, can } = useLoaderData<typeof loader>();
  const { t, i18n } = useTranslation("visitorPasses");
  const columns = useMemo(() => passColumns(t, { timeZone, lang: i18n.language }), [t, timeZone, i18n.language]);
  return (
    <ListPage
      title={t("title")}
      description={t("description")}
      actions={
        can.rules && (
          <LinkButton variant="outline" to="/visitorPassRules">
            {t("rules")}
          </LinkButton>
        )
      }
      add={can.invite && { to: "/addVisitorPass", label: t("invite") }}
      columns={columns}
      page={{ rows, total, params }}
      empty={state ? t("emptyFiltered") : t("empty")}
      emptyHint={state ? undefined : t("emptyHint")}
    >
      <StateFilter label={t("filter.label")} stateLabel={t("filter.state")} anyLabel={t("filter.all")} states={PASS_STATES} optionLabel={(s) => t(`state.${s}`)} value={state} />
    </ListPage>
  );
}
