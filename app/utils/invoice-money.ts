/**
 * Invoice maths in integer cents and basis points (docs/decisions/0024-invoice-money.md). Pure and
 * client-safe: the invoice form shows live totals with it and the service recomputes every saved
 * figure with it, so the browser and the server cannot disagree and client totals are never trusted.
 *
 * Rounding: half-up (away from zero for these non-negative amounts) at the cent and at the basis point.
 */

/** Limits keep every product below Number.MAX_SAFE_INTEGER: 100 lines × 10,000 × $1,000,000.00. */
export const MAX_MSRP_CENTS = 100_000_000;
export const MAX_QTY = 10_000;
export const MAX_LINES = 100;
/** 100 % in basis points (1 bp = 0.01 %). */
export const FULL_BP = 10_000;

const MONEY_RE = /^\d{1,9}(\.\d{0,2})?$|^\.\d{1,2}$/;
const PERCENT_RE = /^\d{1,3}(\.\d{0,2})?$|^\.\d{1,2}$/;

/** Digits with at most two decimals → hundredths, by string, never through a float. */
function hundredths(text: string): number {
  const [whole, frac = ""] = text.split(".");
  return Number(whole || "0") * 100 + Number((frac + "00").slice(0, 2));
}

/** A number as typed or sent: numbers through their shortest decimal form, "$1,234.5" tolerated. */
function decimalText(input: unknown): string | null {
  if (typeof input === "number") return Number.isFinite(input) ? String(input) : null;
  if (typeof input !== "string") return null;
  return input.trim().replace(/^\$/, "").replace(/,/g, "");
}

/** "12", "12.5", "$1,234.56", 12.5 → cents; null when not a non-negative amount with at most two decimals. */
export function parseMoney(input: unknown): number | null {
  const text = decimalText(input);
  return text !== null && MONEY_RE.test(text) ? hundredths(text) : null;
}

/** "15", "15.25", 15 → basis points (1500, 1525); null unless 0–100 with at most two decimals. */
export function parsePercent(input: unknown): number | null {
  const text = decimalText(input);
  if (text === null || !PERCENT_RE.test(text)) return null;
  const bp = hundredths(text);
  return bp <= FULL_BP ? bp : null;
}

/** Integer division rounding half up, for n ≥ 0 and d > 0. */
const divHalfUp = (n: number, d: number) => Math.floor((2 * n + d) / (2 * d));

/** The discount a price per represents, in basis points of the MSRP (0 < pricePer ≤ msrp). */
export function discountBpFor(msrpCents: number, pricePerCents: number): number {
  return divHalfUp((msrpCents - pricePerCents) * FULL_BP, msrpCents);
}

/** The price per left after a discount of `bp` basis points off the MSRP. */
export function pricePerFor(msrpCents: number, bp: number): number {
  return msrpCents - divHalfUp(msrpCents * bp, FULL_BP);
}

export type LineInput = { qty: number; msrpCents: number; pricePerCents?: number | null; discountBp?: number | null };
export type LineFigures = { qty: number; msrpCents: number; pricePerCents: number; discountBp: number; totalCents: number };

/**
 * A line's figures. The price per is what is charged: when given it wins and the discount is derived
 * from it; otherwise it is derived from the discount (none: the MSRP).
 */
export function lineFigures(l: LineInput): LineFigures {
  const pricePerCents = l.pricePerCents ?? pricePerFor(l.msrpCents, l.discountBp ?? 0);
  const discountBp = l.msrpCents > 0 ? discountBpFor(l.msrpCents, pricePerCents) : 0;
  return { qty: l.qty, msrpCents: l.msrpCents, pricePerCents, discountBp, totalCents: pricePerCents * l.qty };
}

export type InvoiceFigures = { amountCents: number; discountCents: number; totalCents: number };

/** Subtotal at MSRP, the discount off it, and the total: the sum of the line totals. */
export function invoiceFigures(lines: readonly Pick<LineFigures, "qty" | "msrpCents" | "totalCents">[]): InvoiceFigures {
  let amountCents = 0;
  let totalCents = 0;
  for (const l of lines) {
    amountCents += l.msrpCents * l.qty;
    totalCents += l.totalCents;
  }
  return { amountCents, discountCents: amountCents - totalCents, totalCents };
}

/** Cents as an input shows them: 123450 → "1234.50". */
export function centsText(cents: number): string {
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
}

/** Basis points as a percent with two decimals: 1525 → "15.25". */
export const percentText = (bp: number) => centsText(bp);

/** `$` and two decimals with thousands separators, from integer cents: 123450 → "$1,234.50". */
export function formatUsd(cents: number): string {
  const [whole, frac] = centsText(Math.abs(cents)).split(".");
  return `${cents < 0 ? "-" : ""}$${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",")}.${frac}`;
}
