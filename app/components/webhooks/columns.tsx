import { Form } from "@remix-run/react";
import type { ColumnDef } from "@tanstack/react-table";
import type { TFunction } from "i18next";
import { dateColumn } from "~/components/data-table/date-column";
import { deleteColumn } from "~/components/data-table/delete-column";
import { openColumn } from "~/components/data-table/open-column";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { InboxIcon } from "~/components/ui/icons";
import { LinkButton } from "~/components/ui/link-button";
import type { WebhookEndpointListRow } from "~/services/webhooks/endpoints.server";
import type { WebhookDeliveryRow } from "~/services/webhooks/log.server";

const STATE_BADGE = { pending: "warning", delivered: "success", dead: "destructive" } as const;

/** A delivery's state as a badge; `none` for an endpoint nothing was sent to yet. */
export const DeliveryState = ({ t, state }: { t: TFunction; state: WebhookDeliveryRow["state"] | null }) =>
  state ? <Badge variant={STATE_BADGE[state]}>{t(`state.${state}`)}</Badge> : <span className="text-muted-foreground">{t("state.none")}</span>;

/** Columns of /webhooks; sortable ids match `WEBHOOK_ENDPOINT_SORTS`. The icon opens the delivery log. */
export function webhookColumns(t: TFunction, o: { zone: string; modify: boolean; delete: boolean }): ColumnDef<WebhookEndpointListRow>[] {
  const cols: ColumnDef<WebhookEndpointListRow>[] = [
    openColumn<WebhookEndpointListRow>({
      header: t("col.log"),
      icon: <InboxIcon className="size-4" />,
      href: (r) => `/webhookDeliveries?id=${r.id}`,
      label: (r) => t("openLog", { url: r.url }),
    }),
    { id: "url", accessorKey: "url", header: t("col.url"), enableSorting: true, meta: { className: "whitespace-normal break-all min-w-48" } },
    { id: "description", accessorKey: "description", header: t("col.description"), enableSorting: true, meta: { className: "whitespace-normal min-w-32" } },
    { id: "eventTypes", header: t("col.eventTypes"), cell: ({ row }) => t("eventCount", { count: row.original.eventTypes.length }) },
    {
      id: "enabled",
      header: t("col.enabled"),
      cell: ({ row }) =>
        row.original.enabled ? (
          <Badge variant="success">{t("enabled")}</Badge>
        ) : (
          <Badge variant="secondary" title={row.original.disabledReason ?? undefined}>
            {t(row.original.disabledReason ? "disabledByPlatform" : "disabled")}
          </Badge>
        ),
    },
    { id: "lastDelivery", header: t("col.lastDelivery"), cell: ({ row }) => <DeliveryState t={t} state={row.original.lastDeliveryState} /> },
    dateColumn<WebhookEndpointListRow>({ id: "createdAt", header: t("col.createdAt"), value: (r) => r.createdAt, timeZone: o.zone, sortable: true }),
  ];
  if (o.modify)
    cols.push({
      id: "edit",
      header: () => <span className="sr-only">{t("col.edit")}</span>,
      cell: ({ row }) => (
        <LinkButton variant="link" size="inline" to={`/modifyWebhook?id=${row.original.id}`} aria-label={t("edit", { url: row.original.url })}>
          {t("col.edit")}
        </LinkButton>
      ),
    });
  if (o.delete) cols.push(deleteColumn<WebhookEndpointListRow>(t, (r) => ({ url: r.url })));
  return cols;
}

/** Columns of /webhookDeliveries; sortable ids match `WEBHOOK_DELIVERY_SORTS`. Replay posts `{intent: "replay", id}`. */
export function deliveryColumns(t: TFunction, o: { zone: string; replay: boolean }): ColumnDef<WebhookDeliveryRow>[] {
  const cols: ColumnDef<WebhookDeliveryRow>[] = [
    dateColumn<WebhookDeliveryRow>({ id: "occurredAt", header: t("col.occurredAt"), value: (r) => r.occurredAt, timeZone: o.zone, sortable: true }),
    {
      id: "type",
      accessorKey: "type",
      header: t("col.type"),
      enableSorting: true,
      cell: ({ row }) => <span title={row.original.type}>{t(`type.${row.original.type}`, { defaultValue: row.original.type })}</span>,
    },
    {
      id: "webhookId",
      header: t("col.webhookId"),
      cell: ({ row }) => <code className="font-mono text-xs break-all">{row.original.eventId}</code>,
      meta: { className: "whitespace-normal min-w-40" },
    },
    { id: "state", header: t("col.status"), enableSorting: true, accessorKey: "state", cell: ({ row }) => <DeliveryState t={t} state={row.original.state} /> },
    { id: "attempts", accessorKey: "attempts", header: t("col.attempts"), meta: { className: "text-right" } },
    { id: "lastStatus", header: t("col.lastStatus"), cell: ({ row }) => row.original.lastStatus ?? (row.original.attempts > 0 ? t("noAnswer") : "") },
    { id: "latency", header: t("col.latency"), cell: ({ row }) => (row.original.last ? t("latencyMs", { ms: row.original.last.latencyMs }) : "") },
    {
      id: "response",
      header: t("col.response"),
      meta: { className: "whitespace-normal min-w-40 max-w-64" },
      cell: ({ row }) => {
        const text = row.original.last ? (row.original.last.error ?? row.original.last.responseExcerpt) : "";
        return (
          <span className="line-clamp-2 font-mono text-xs break-all" title={text}>
            {text}
          </span>
        );
      },
    },
    dateColumn<WebhookDeliveryRow>({ id: "nextAttempt", header: t("col.nextAttempt"), value: (r) => (r.state === "pending" ? r.nextAttemptAt : null), timeZone: o.zone }),
  ];
  if (o.replay)
    cols.push({
      id: "replay",
      header: () => <span className="sr-only">{t("col.replay")}</span>,
      cell: ({ row }) => (
        <Form method="post" preventScrollReset>
          <input type="hidden" name="intent" value="replay" />
          <input type="hidden" name="id" value={row.original.id} />
          <Button type="submit" variant="outline" size="sm" aria-label={t("replayLabel", { id: row.original.eventId })}>
            {t("replay")}
          </Button>
        </Form>
      ),
    });
  return cols;
}
