import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useLoaderData, useNavigation } from "@remix-run/react";
import type { ColumnDef } from "@tanstack/react-table";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { DataTable } from "~/components/data-table/data-table";
import { parseTableParams } from "~/components/data-table/params";
import { EmailText } from "~/components/data-table/email-link";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { EmptyState } from "~/components/ui/empty-state";
import { PageHeader } from "~/components/ui/page-header";
import { getFixedT, getLanguage } from "~/i18n/i18next.server";
import { translateMessage } from "~/i18n/messages";
import { acceptCompanyRequest, listCompanyRequests, rejectCompanyRequest, type CompanyRequestRow } from "~/services/company-requests.server";
import { deliverQueuedMail } from "~/services/mail/outbox.server";
import { requireModule } from "~/utils/auth-guards.server";
import { getDb, nowMs } from "~/utils/db.server";
import { ServiceError } from "~/utils/errors.server";
import { formatDate, formatPhone } from "~/utils/format";
import { can } from "~/utils/permissions";
import { rowAction, rowSchema } from "~/utils/row-action.server";

export const meta: MetaFunction = () => [{ title: "Company Requests" }];

const MODULES = ["company", "users"] as const;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireModule(request, context, MODULES);
  const params = parseTableParams(request.url, { defaultSort: "createdAt", sortable: ["createdAt"] });
  try {
    const { rows, total } = await listCompanyRequests(getDb(context), auth, { page: { offset: params.offset, limit: params.pageSize } });
    const decide = auth.company.type === "root" && can(auth.permissions, "company", "add");
    return { rows, total, params, decide, companyList: can(auth.permissions, "company") };
  } catch (e) {
    if (e instanceof ServiceError && e.status === 403) throw new Response("Forbidden", { status: 403 });
    throw e;
  }
}

export async function action({ request, context }: ActionFunctionArgs) {
  const auth = await requireModule(request, context, "company", "add");
  const env = context.cloudflare.env;
  const t = await getFixedT(await getLanguage(request), "requests");
  return rowAction(request, context, "requests", rowSchema, async ({ id, intent }) => {
    const now = nowMs();
    const r =
      intent === "accept"
        ? await acceptCompanyRequest(getDb(context), auth, id, { origin: new URL(request.url).origin, now })
        : await rejectCompanyRequest(getDb(context), auth, id, now);
    deliverQueuedMail(env, (p) => context.cloudflare.ctx.waitUntil(p));
    return "companyId" in r ? `${translateMessage(t, r.message, "requests")} (${r.companyId})` : r.message;
  });
}

export default function CompanyRequestsPage() {
  const { rows, total, params, decide, companyList } = useLoaderData<typeof loader>();
  const { t } = useTranslation("requests");
  const busy = useNavigation().state !== "idle";
  const columns = useMemo(() => {
    const cols: ColumnDef<CompanyRequestRow>[] = [
      { id: "name", accessorKey: "companyName", header: t("col.name"), meta: { className: "whitespace-normal min-w-28" } },
      { id: "type", header: t("col.type"), cell: ({ row }) => row.original.companyType.toUpperCase() },
      { id: "term", header: t("col.term"), meta: { className: "whitespace-normal" }, cell: ({ row }) => t("term", { n: row.original.billingTermYears }) },
      { id: "reseller", header: t("col.reseller"), meta: { className: "whitespace-normal" }, cell: ({ row }) => `${row.original.reseller.name} (${row.original.reseller.code})` },
      {
        id: "poc",
        header: t("col.poc"),
        meta: { className: "whitespace-normal" },
        cell: ({ row }) => (
          <span className="grid">
            <span>{`${row.original.poc.firstName} ${row.original.poc.lastName}`}</span>
            <span className="text-xs text-muted-foreground">
              <EmailText email={row.original.poc.email} />
            </span>
            <span className="text-xs whitespace-nowrap text-muted-foreground">{formatPhone(row.original.poc.countryCode, row.original.poc.phoneNumber)}</span>
          </span>
        ),
      },
      { id: "createdAt", header: t("col.createdAt"), meta: { className: "whitespace-normal" }, cell: ({ row }) => formatDate(row.original.createdAt, "UTC") },
      {
        id: "status",
        header: t("col.status"),
        meta: { className: "whitespace-normal" },
        cell: ({ row }) => (
          <Badge className="whitespace-normal" variant={row.original.status === "pending" ? "outline" : row.original.status === "accepted" ? "success" : "destructive"}>
            {t(`status.${row.original.status}`)}
            {row.original.createdCompanyCode ? ` · ${row.original.createdCompanyCode}` : ""}
          </Badge>
        ),
      },
    ];
    if (decide)
      cols.push({
        id: "actions",
        header: () => <span className="sr-only">{t("col.actions")}</span>,
        cell: ({ row }) =>
          row.original.status === "pending" ? (
            <div className="flex flex-wrap gap-2">
              <Form method="post">
                <input type="hidden" name="id" value={row.original.id} />
                <Button type="submit" name="intent" value="accept" size="sm" disabled={busy} aria-label={t("acceptLabel", { name: row.original.companyName })}>
                  {t("accept")}
                </Button>
              </Form>
              <ConfirmDialog
                trigger={
                  <Button type="button" size="sm" variant="outline" aria-label={t("rejectLabel", { name: row.original.companyName })}>
                    {t("reject")}
                  </Button>
                }
                title={t("rejectTitle")}
                description={t("rejectDescription", { name: row.original.companyName })}
                fields={{ intent: "reject", id: row.original.id }}
                confirmLabel={t("reject")}
                cancelLabel={t("cancel")}
                destructive
              />
            </div>
          ) : null,
      });
    return cols;
  }, [t, decide, busy]);
  return (
    <div className="grid gap-4">
      <PageHeader
        title={t("title")}
        actions={
          companyList && (
            <Button asChild variant="outline">
              <Link to="/company">{t("backToCompanies")}</Link>
            </Button>
          )
        }
      />
      <DataTable columns={columns} data={rows} total={total} params={params} caption={t("title")} getRowId={(r) => String(r.id)} emptyState={<EmptyState title={t("empty")} />} />
    </div>
  );
}
