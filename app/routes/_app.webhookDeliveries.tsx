import { StateFilter } from "~/components/data-table/state-filter";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { ListPage } from "~/components/data-table/list-page";
import { tablePage } from "~/components/data-table/params";
import { LinkButton } from "~/components/ui/link-button";
import { deliveryColumns } from "~/components/webhooks/columns";
import { ReplayRangeDialog } from "~/components/webhooks/replay-range-dialog";
import { deliveryStateOf, WEBHOOK_DELIVERY_FILTER, webhookReplayFormSchema } from "~/schemas/webhooks";
import { wakeWebhooks } from "~/services/webhooks/delivery.server";
import { findWebhookEndpoint } from "~/services/webhooks/endpoints.server";
import { listWebhookDeliveries, replayWebhookDelivery, replayWebhookRange, WEBHOOK_DELIVERY_SORTS } from "~/services/webhooks/log.server";
import { companyZone, requireModule } from "~/utils/auth-guards.server";
import { getDb, nowMs } from "~/utils/db.server";
import { formAction } from "~/utils/form-action.server";
import { can } from "~/utils/permissions";
import { idFromUrl, loadRecord } from "~/utils/record-from-url.server";
import { rowAction, rowSchema } from "~/utils/row-action.server";
import { redirectWithMessage } from "~/utils/toast.server";
import { localDateTimeInstant, localDateTimeOf } from "~/utils/zoned-day";

export const meta: MetaFunction = () => [{ title: "Webhook delivery log" }];

const MODULE = "company_settings";

/** An endpoint's delivery log (`?id=` the endpoint), paged and sorted on the server, filtered by `?state=`. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireModule(request, context, MODULE);
  const db = getDb(context);
  const state = deliveryStateOf(new URL(request.url).searchParams.get("state"));
  const zone = companyZone(auth);
  const now = nowMs();
  return loadRecord(request, { list: "/webhooks" }, async (id) => {
    const endpoint = await findWebhookEndpoint(db, auth, id);
    const page = await tablePage(request.url, { defaultSort: "-createdAt", sortable: Object.keys(WEBHOOK_DELIVERY_SORTS) }, (_, slice) =>
      listWebhookDeliveries(db, auth, id, { ...slice, state }),
    );
    return {
      ...page,
      endpoint: { id, url: endpoint.url },
      state: state ?? "",
      zone,
      range: { from: localDateTimeOf(now - 86_400_000, zone), to: localDateTimeOf(now + 60_000, zone) },
      canReplay: can(auth.permissions, MODULE, "modify"),
    };
  });
}

/** Replays (the modify right): one delivery (`intent=replay`, its id), or a time range (`intent=replayRange`). */
export async function action({ request, context }: ActionFunctionArgs) {
  const auth = await requireModule(request, context, MODULE, "modify");
  const form = await request.formData();
  const db = getDb(context);
  const env = context.cloudflare.env;
  const endpointId = idFromUrl(request) ?? 0;
  const now = nowMs();
  const wake = () => context.cloudflare.ctx.waitUntil(wakeWebhooks(env));
  if (form.get("intent") === "replayRange") {
    const zone = companyZone(auth);
    return formAction(
      request,
      webhookReplayFormSchema,
      async (v) => {
        const r = await replayWebhookRange(db, auth, endpointId, { from: localDateTimeInstant(v.from, zone), to: localDateTimeInstant(v.to, zone) }, now);
        wake();
        return redirectWithMessage({ request, context }, { ns: "webhooks", message: r.message });
      },
      { formData: form },
    );
  }
  return rowAction(
    request,
    context,
    "webhooks",
    rowSchema,
    async ({ id }) => {
      const r = await replayWebhookDelivery(db, auth, endpointId, id, now);
      wake();
      return r.message;
    },
    form,
  );
}

export default function WebhookDeliveriesPage() {
  const { rows, total, params, endpoint, state, zone, range, canReplay } = useLoaderData<typeof loader>();
  const { t } = useTranslation("webhooks");
  const columns = useMemo(() => deliveryColumns(t, { zone, replay: canReplay }), [t, zone, canReplay]);
  return (
    <ListPage
      title={t("logTitle")}
      description={<span className="break-all">{t("logDescription", { url: endpoint.url })}</span>}
      back={{ to: "/webhooks", label: t("backToList") }}
      actions={
        canReplay && (
          <>
            <LinkButton variant="outline" to={`/modifyWebhook?id=${endpoint.id}`}>
              {t("col.edit")}
            </LinkButton>
            <ReplayRangeDialog zone={zone} initial={range} />
          </>
        )
      }
      columns={columns}
      page={{ rows, total, params }}
      empty={t(state ? "logEmptyFiltered" : "logEmpty")}
    >
      <StateFilter
        label={t("filter.label")}
        stateLabel={t("filter.state")}
        anyLabel={t("filter.any")}
        states={WEBHOOK_DELIVERY_FILTER}
        optionLabel={(s) => t(`state.${s}`)}
        value={state}
        keep={{ id: endpoint.id }}
      />
    </ListPage>
  );
}
