import { usePageForm } from "~/components/forms/use-page-form";
import { Form, Link, useNavigation } from "@remix-run/react";
import { useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { FormAlert } from "~/components/auth/form-parts";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { NativeSelect } from "~/components/ui/native-select";
import { Textarea } from "~/components/ui/textarea";
import { translateMessage } from "~/i18n/messages";
import { INVOICE_MSG, invoiceFormSchema, REQUIRED_MESSAGES } from "~/schemas/invoices";
import { centsText, discountBpFor, formatUsd, lineFigures, MAX_LINES, parseMoney, parsePercent, percentText, pricePerFor } from "~/utils/invoice-money";

export type DraftLine = { id?: number; name: string; desc: string; qty: string; price: string; discount: string; price_per: string };
export type InvoiceDraft = { customerId: string; invoiceNum: string; dueDate: string; notes: string; lines: DraftLine[] };

type Line = DraftLine & { key: number };
const EMPTY_LINE: DraftLine = { name: "", desc: "", qty: "1", price: "", discount: "0", price_per: "" };
const qtyOf = (s: string) => (/^\d{1,5}$/.test(s.trim()) ? Number(s) : null);

/**
 * A line after one field changed, with the fields that derive from it (spec §5): the discount follows
 * the price per; the price per follows MSRP and discount. Both through `~/utils/invoice-money`.
 */
function edit(l: Line, field: keyof DraftLine, value: string): Line {
  const next = { ...l, [field]: value };
  const msrp = parseMoney(next.price);
  if (!msrp) return next;
  if (field === "price_per") {
    const pp = parseMoney(value);
    if (pp !== null && pp <= msrp) next.discount = percentText(discountBpFor(msrp, pp));
  } else if (field === "discount" || field === "price") {
    const bp = parsePercent(next.discount);
    if (bp !== null) next.price_per = centsText(pricePerFor(msrp, bp));
  }
  return next;
}

/** The line's total as the server will compute it, or null while a figure is incomplete. */
function totalOf(l: DraftLine): number | null {
  const qty = qtyOf(l.qty);
  const msrp = parseMoney(l.price);
  const pp = parseMoney(l.price_per);
  return qty && msrp && pp !== null ? lineFigures({ qty, msrpCents: msrp, pricePerCents: pp }).totalCents : null;
}

/** /createCustomerInvoice (spec part 2 §5): Conform + the shared zod schema in the browser and on the server, live totals. */
type Customer = { id: number; name: string; code: string; discountPercent: number };

export function InvoiceForm({ draft, customers, today }: { draft: InvoiceDraft; customers: Customer[]; today: string }) {
  const { t } = useTranslation("invoices");
  const busy = useNavigation().state === "submitting";
  const nextKey = useRef(draft.lines.length + 1);
  // A new line's discount starts at the chosen customer's tier (15 % for most, 0 % retail).
  const tierOf = (customerId: string) => {
    const c = customers.find((x) => String(x.id) === customerId);
    return c ? percentText(Math.round(c.discountPercent * 100)) : EMPTY_LINE.discount;
  };
  const [tier, setTier] = useState(() => tierOf(draft.customerId));
  const [lines, setLines] = useState<Line[]>(() => (draft.lines.length ? draft.lines : [{ ...EMPTY_LINE, discount: tier }]).map((l, i) => ({ ...l, key: i })));
  const schema = useMemo(() => invoiceFormSchema(today), [today]);
  const { form, fields, formProps } = usePageForm({ id: "create-invoice", schema, ns: "invoices", shouldValidate: "onSubmit" });
  const msg = (e?: string[]) => (e?.[0] ? translateMessage(t, e[0], "invoices") : undefined);
  const errorOf = (name: string) => msg(form.allErrors[name]);
  const allMessages = Object.values(form.allErrors).flat();
  const banner = allMessages.some((m) => REQUIRED_MESSAGES.has(m)) ? translateMessage(t, INVOICE_MSG.banner, "invoices") : undefined;
  const totals = lines.map(totalOf);
  const invoiceTotal = totals.reduce<number>((s, v) => s + (v ?? 0), 0);

  const set = (key: number, field: keyof DraftLine, value: string) => setLines((ls) => ls.map((l) => (l.key === key ? edit(l, field, value) : l)));
  const add = () => setLines((ls) => [...ls, { ...EMPTY_LINE, discount: tier, key: nextKey.current++ }]);
  /** Another customer: new lines still at the old tier's discount move to the new tier; a discount typed by hand stays. */
  const chooseCustomer = (customerId: string) => {
    const next = tierOf(customerId);
    setLines((ls) => ls.map((l) => (l.id == null && parsePercent(l.discount) === parsePercent(tier) ? edit(l, "discount", next) : l)));
    setTier(next);
  };
  const remove = (key: number) => setLines((ls) => ls.filter((l) => l.key !== key));

  return (
    <Form method="post" {...formProps} className="grid gap-6">
      <FormAlert message={banner} />
      <FormAlert message={form.errors?.[0] !== INVOICE_MSG.banner ? msg(form.errors) : undefined} />
      <Card>
        <CardContent className="grid gap-5 pt-5 sm:pt-6 md:grid-cols-2">
          <Field label={t("field.customer")} error={msg(fields.customerId.errors)} required>
            <NativeSelect id="invoice-customer" name={fields.customerId.name} defaultValue={draft.customerId} onChange={(e) => chooseCustomer(e.target.value)}>
              <option value="">{t("field.chooseCustomer")}</option>
              {customers.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name} ({c.code})
                </option>
              ))}
            </NativeSelect>
          </Field>
          <Field label={t("field.invoiceNum")} hint={t("field.invoiceNumHint")} error={msg(fields.invoiceNum.errors)} required>
            <Input id="invoice-num" name={fields.invoiceNum.name} defaultValue={draft.invoiceNum} maxLength={50} autoComplete="off" />
          </Field>
          <Field label={t("field.dueDate")} hint={t("field.dueDateHint")} error={msg(fields.dueDate.errors)} required>
            <Input id="invoice-due" type="date" name={fields.dueDate.name} defaultValue={draft.dueDate} min={today} />
          </Field>
          <Field label={t("field.notes")} error={msg(fields.notes.errors)} required>
            <Textarea id="invoice-notes" name={fields.notes.name} defaultValue={draft.notes} maxLength={1000} rows={2} />
          </Field>
        </CardContent>
      </Card>

      <Card>
        <CardHeader className="flex flex-row items-center justify-between">
          <CardTitle>{t("lines")}</CardTitle>
          <Button type="button" variant="outline" onClick={add} disabled={lines.length >= MAX_LINES}>
            {t("addLine")}
          </Button>
        </CardHeader>
        <CardContent className="grid gap-4">
          {msg(fields.lineItems.errors) && (
            <p role="alert" className="text-sm text-destructive">
              {msg(fields.lineItems.errors)}
            </p>
          )}
          {lines.length === 0 && <p className="text-sm text-muted-foreground">{t("noLines")}</p>}
          {lines.map((l, i) => {
            const name = (f: string) => `lineItems[${i}].${f}`;
            const saved = l.id !== undefined;
            const cell = (f: keyof DraftLine, label: string, extra: { readOnly?: boolean; inputMode?: "decimal" | "numeric"; className?: string } = {}) => (
              <Field label={label} error={errorOf(name(f))} required={f !== "discount"} className={extra.className}>
                <Input
                  id={`line-${l.key}-${f}`}
                  name={name(f)}
                  value={l[f] as string}
                  readOnly={extra.readOnly}
                  inputMode={extra.inputMode}
                  maxLength={f === "desc" ? 500 : f === "name" ? 100 : 16}
                  autoComplete="off"
                  onChange={(e) => set(l.key, f, e.target.value)}
                  className={extra.readOnly ? "bg-muted" : undefined}
                />
              </Field>
            );
            return (
              <fieldset key={l.key} className="grid gap-3 rounded-lg border border-border p-3" data-testid={`line-${i}`}>
                <legend className="px-1 text-sm font-medium">{t("line.number", { n: i + 1 })}</legend>
                {saved && <input type="hidden" name={name("id")} value={l.id} />}
                {saved && <p className="text-xs text-muted-foreground">{t("line.saved")}</p>}
                <div className="grid gap-3 md:grid-cols-2">
                  {cell("name", t("line.name"))}
                  {cell("desc", t("line.desc"))}
                </div>
                <div className="grid items-start gap-3 sm:grid-cols-3 lg:grid-cols-6">
                  {cell("qty", t("line.qty"), { readOnly: saved, inputMode: "numeric" })}
                  {cell("price", t("line.msrp"), { readOnly: saved, inputMode: "decimal" })}
                  {cell("discount", t("line.discount"), { inputMode: "decimal" })}
                  {cell("price_per", t("line.pricePer"), { inputMode: "decimal" })}
                  <div className="grid content-start gap-1.5">
                    <span className="text-sm font-medium">{t("line.total")}</span>
                    <output className="flex h-9 items-center text-sm tabular-nums" data-testid={`line-total-${i}`} aria-live="polite">
                      {totals[i] === null ? "—" : formatUsd(totals[i]!)}
                    </output>
                  </div>
                  <div className="flex items-end pt-6">
                    <Button type="button" variant="ghost" onClick={() => remove(l.key)} aria-label={t("removeLine", { n: i + 1 })}>
                      ✕
                    </Button>
                  </div>
                </div>
              </fieldset>
            );
          })}
          <p className="flex justify-end gap-3 text-base font-semibold">
            <span>{t("field.total")}</span>
            <output data-testid="invoice-total" aria-live="polite" className="tabular-nums">
              {formatUsd(invoiceTotal)}
            </output>
          </p>
        </CardContent>
      </Card>
      <div className="flex gap-2">
        <Button type="submit" loading={busy}>
          {t("submit")}
        </Button>
        <Button asChild variant="outline">
          <Link to="/billingPortal">{t("cancel")}</Link>
        </Button>
      </div>
    </Form>
  );
}
