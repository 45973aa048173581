import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { useFetcher, useLoaderData } from "@remix-run/react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { DevicePickTable } from "~/components/lifecycle/device-pick-table";
import { TransferDialogForm, type TransferActionData } from "~/components/lifecycle/transfer-dialog";
import { deviceStatusText } from "~/components/lifecycle/device-status";
import { toast } from "~/components/toast/toast-store";
import { Button } from "~/components/ui/button";
import { Dialog } from "~/components/ui/dialog";
import { ChevronsRightIcon } from "~/components/ui/icons";
import { PageHeader } from "~/components/ui/page-header";
import { getFixedT, getLanguage } from "~/i18n/i18next.server";
import { translateMessage } from "~/i18n/messages";
import { transferSchema } from "~/schemas/device-lifecycle";
import { listCompanyDevices } from "~/services/companies.server";
import { assertVarPanel, findChildCompany, getCompanyStock, transferDevices } from "~/services/device-stock.server";
import { todayOf } from "~/utils/today";
import { companyZone, requireModule } from "~/utils/auth-guards.server";
import { getDb, nowMs } from "~/utils/db.server";
import { formAction } from "~/utils/form-action.server";
import { loadRecord } from "~/utils/record-from-url.server";

export const meta: MetaFunction = () => [{ title: "Device Transfer" }];

const PAGE_SIZE = 50;
const pageOf = (v: string | null) => (v && /^\d{1,6}$/.test(v) && Number(v) >= 1 ? Number(v) : 1);

/** /deviceTransfer?company_id=…: the caller's stock (left) and the child's devices (right), 50 per page each. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireModule(request, context, "var_panel", "modify");
  assertVarPanel(auth, "modify");
  const url = new URL(request.url);
  const db = getDb(context);
  const target = await loadRecord(request, { list: "/varPanel", param: "company_id" }, (id) => findChildCompany(db, auth, id));
  const stockPage = pageOf(url.searchParams.get("stockPage"));
  const targetPage = pageOf(url.searchParams.get("targetPage"));
  const [stock, devices] = await Promise.all([
    getCompanyStock(db, auth, { page: { offset: (stockPage - 1) * PAGE_SIZE, limit: PAGE_SIZE } }),
    listCompanyDevices(db, auth, target.id, { page: { offset: (targetPage - 1) * PAGE_SIZE, limit: PAGE_SIZE } }),
  ]);
  return {
    company: stock.company,
    target: { id: target.id, name: target.name, code: target.code, type: target.type },
    stock: { rows: stock.rows, total: stock.total, page: stockPage },
    devices: { rows: devices.details, total: devices.total, page: targetPage },
    today: todayOf(nowMs(), companyZone(auth)),
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const auth = await requireModule(request, context, "var_panel", "modify");
  const now = nowMs();
  return formAction(request, transferSchema(todayOf(now, companyZone(auth))), async (value, submission) => {
    const r = await transferDevices(getDb(context), auth, value, now);
    const t = await getFixedT(await getLanguage(request), "lifecycle");
    return { ok: true, message: translateMessage(t, r.message, "lifecycle"), result: submission.reply({ resetForm: true }) } satisfies TransferActionData;
  });
}

export default function DeviceTransferPage() {
  const { company, target, stock, devices, today } = useLoaderData<typeof loader>();
  const { t, i18n } = useTranslation("lifecycle");
  const fetcher = useFetcher<TransferActionData>();
  const [selected, setSelected] = useState<Set<number>>(() => new Set());
  const [open, setOpen] = useState(false);
  // Each opening mounts a new form, so the dialog starts empty every time.
  const [opening, setOpening] = useState(0);

  // On success: the toast, an empty selection, a closed dialog; the fetcher's POST reloads both lists.
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.ok) {
      toast({ type: "success", message: fetcher.data.message ?? "" });
      setSelected(new Set());
      setOpen(false);
    }
  }, [fetcher.state, fetcher.data]);

  const toggle = (ids: number[], on: boolean) =>
    setSelected((prev) => {
      const next = new Set(prev);
      for (const id of ids)
        if (on) next.add(id);
        else next.delete(id);
      return next;
    });
  const cols = { serial: t("col.serial"), type: t("col.boardType") };
  return (
    <div className="grid gap-4">
      <PageHeader
        title={t("transferPageTitle")}
        description={t("transferPageDescription", { from: `${company.name} (${company.code})`, to: `${target.name} (${target.code})` })}
        back={{ to: "/varPanel", label: t("backToCompanies") }}
      />
      <div className="grid items-start gap-4 lg:grid-cols-[1fr_auto_1fr]">
        <section aria-labelledby="stock-heading" className="grid min-w-0 gap-2">
          <h2 id="stock-heading" className="text-sm font-semibold">
            {t("yourStock")} <span className="font-normal text-muted-foreground">({t("selectedCount", { count: selected.size })})</span>
          </h2>
          <DevicePickTable
            caption={t("yourStock")}
            rows={stock.rows.map((r) => ({ id: r.id, serial: r.serialNumber, front: r.serialFront, back: r.serialBack, type: r.boardType }))}
            total={stock.total}
            page={stock.page}
            pageSize={PAGE_SIZE}
            pageParam="stockPage"
            columns={cols}
            empty={t("noStock")}
            selected={selected}
            onToggle={toggle}
            selectLabel={(serial) => t("selectDevice", { serial })}
            selectAllLabel={t("selectPage")}
          />
        </section>
        <div className="flex justify-center lg:pt-24">
          <Dialog open={open} onOpenChange={setOpen}>
            <Button
              type="button"
              size="icon"
              aria-label={t("transferSelected", { count: selected.size, name: target.name })}
              title={t("transferSelected", { count: selected.size, name: target.name })}
              disabled={selected.size === 0}
              onClick={() => {
                setOpening((n) => n + 1);
                setOpen(true);
              }}
            >
              <ChevronsRightIcon className="rotate-90 lg:rotate-0" />
            </Button>
            {open && <TransferDialogForm key={opening} fetcher={fetcher} target={target} deviceIds={[...selected]} today={today} />}
          </Dialog>
        </div>
        <section aria-labelledby="target-heading" className="grid min-w-0 gap-2">
          <h2 id="target-heading" className="text-sm font-semibold">
            {t("targetDevices", { name: target.name })}
          </h2>
          <DevicePickTable
            caption={t("targetDevices", { name: target.name })}
            rows={devices.rows.map((r) => ({
              id: r.id,
              serial: r.serialNumber,
              front: r.serialFront,
              back: r.serialBack,
              type: r.boardType,
              status: deviceStatusText(t, r.status, r.startDate, today, i18n.language),
            }))}
            total={devices.total}
            page={devices.page}
            pageSize={PAGE_SIZE}
            pageParam="targetPage"
            columns={{ ...cols, status: t("col.status") }}
            empty={t("noDevices")}
          />
        </section>
      </div>
    </div>
  );
}
