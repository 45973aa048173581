import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { centsText, discountBpFor, formatUsd, FULL_BP, invoiceFigures, lineFigures, MAX_MSRP_CENTS, MAX_QTY, parseMoney, parsePercent, pricePerFor } from "./invoice-money";

/*
 * Reference implementation, written apart from the module: exact rationals in BigInt, rounding by
 * comparing twice the remainder with the divisor (the module uses a floor of a shifted quotient).
 */
const big = BigInt;
function refRoundHalfUp(num: bigint, den: bigint): bigint {
  const q = num / den;
  const r = num % den;
  return 2n * r >= den ? q + 1n : q;
}
const refDiscountBp = (msrp: number, pricePer: number) => Number(refRoundHalfUp((big(msrp) - big(pricePer)) * 10000n, big(msrp)));
const refPricePer = (msrp: number, bp: number) => Number(big(msrp) - refRoundHalfUp(big(msrp) * big(bp), 10000n));
/** "$1,234.50" from cents, through BigInt's own locale formatting. */
const refUsd = (cents: number) => {
  const c = big(cents);
  const abs = c < 0n ? -c : c;
  return `${c < 0n ? "-" : ""}$${(abs / 100n).toLocaleString("en-US")}.${String(abs % 100n).padStart(2, "0")}`;
};

const msrp = fc.integer({ min: 1, max: MAX_MSRP_CENTS });
const qty = fc.integer({ min: 1, max: MAX_QTY });
const bp = fc.integer({ min: 0, max: FULL_BP });
const lineByPrice = msrp.chain((m) => fc.record({ msrpCents: fc.constant(m), pricePerCents: fc.integer({ min: 1, max: m }), qty }));
const lineByDiscount = fc.record({ msrpCents: msrp, discountBp: bp, qty });

describe("invoice maths against the BigInt reference", () => {
  it("derives the discount from MSRP and price per, rounded half up to a basis point", () => {
    fc.assert(
      fc.property(lineByPrice, (l) => {
        const f = lineFigures(l);
        expect(f.pricePerCents).toBe(l.pricePerCents);
        expect(f.discountBp).toBe(refDiscountBp(l.msrpCents, l.pricePerCents));
        expect(f.totalCents).toBe(Number(big(l.pricePerCents) * big(l.qty)));
      }),
      { numRuns: 2000 },
    );
  });

  it("derives price per and total from MSRP, discount and quantity, rounded half up to a cent", () => {
    fc.assert(
      fc.property(lineByDiscount, (l) => {
        const f = lineFigures(l);
        expect(f.pricePerCents).toBe(refPricePer(l.msrpCents, l.discountBp));
        expect(f.totalCents).toBe(Number(big(refPricePer(l.msrpCents, l.discountBp)) * big(l.qty)));
        expect(f.pricePerCents).toBeGreaterThanOrEqual(0);
        expect(f.pricePerCents).toBeLessThanOrEqual(l.msrpCents);
      }),
      { numRuns: 2000 },
    );
  });

  it("totals the invoice as the sum of its line totals, and subtotal minus discount equals it", () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(lineByPrice, lineByDiscount), { minLength: 1, maxLength: 100 }), (input) => {
        const ls = input.map(lineFigures);
        const f = invoiceFigures(ls);
        const refTotal = ls.reduce((s, l) => s + big(l.pricePerCents) * big(l.qty), 0n);
        const refAmount = ls.reduce((s, l) => s + big(l.msrpCents) * big(l.qty), 0n);
        expect(big(f.totalCents)).toBe(refTotal);
        expect(big(f.amountCents)).toBe(refAmount);
        expect(big(f.discountCents)).toBe(refAmount - refTotal);
        expect(Number.isSafeInteger(f.totalCents)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it("is stable: recomputing a computed line changes nothing (the server agrees with the form)", () => {
    fc.assert(
      fc.property(lineByDiscount, (l) => {
        const once = lineFigures(l);
        expect(lineFigures({ qty: once.qty, msrpCents: once.msrpCents, pricePerCents: once.pricePerCents, discountBp: once.discountBp })).toEqual(once);
      }),
    );
  });

  it("discount and price per agree within the rounding of one basis point", () => {
    fc.assert(
      fc.property(lineByPrice, (l) => {
        const back = pricePerFor(l.msrpCents, discountBpFor(l.msrpCents, l.pricePerCents));
        // One basis point of the MSRP, half of it either side, bounds the difference.
        expect(Math.abs(back - l.pricePerCents) * 2 * FULL_BP).toBeLessThanOrEqual(l.msrpCents + FULL_BP);
      }),
    );
  });

  it("parses what it prints, and prints money exactly", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: MAX_MSRP_CENTS }), (cents) => {
        expect(parseMoney(centsText(cents))).toBe(cents);
        expect(parseMoney(formatUsd(cents))).toBe(cents);
        expect(formatUsd(cents)).toBe(refUsd(cents));
        expect(formatUsd(-cents)).toBe(cents === 0 ? "$0.00" : refUsd(-cents));
      }),
    );
    fc.assert(
      fc.property(bp, (b) => {
        expect(parsePercent(centsText(b))).toBe(b);
      }),
    );
  });

  it("reads decimal text and numbers without floating point", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 9_999_999 }), fc.integer({ min: 0, max: 99 }), (whole, frac) => {
        expect(parseMoney(`${whole}.${String(frac).padStart(2, "0")}`)).toBe(Number(big(whole) * 100n + big(frac)));
      }),
    );
  });
});

describe("invoice maths: examples", () => {
  it.each([
    // MSRP $200.00, 15 % → $170.00 a unit, 3 units $510.00 (the demo invoice)
    [
      { msrpCents: 20000, discountBp: 1500, qty: 3 },
      { pricePerCents: 17000, discountBp: 1500, totalCents: 51000 },
    ],
    // MSRP $0.03, 10 %: 0.3 cent rounds to 0, the price stays 3 cents and the discount shown is 0 %
    [
      { msrpCents: 3, discountBp: 1000, qty: 1 },
      { pricePerCents: 3, discountBp: 0, totalCents: 3 },
    ],
    // MSRP $0.05, 10 %: half a cent rounds up, 4 cents a unit, which is a 20 % discount
    [
      { msrpCents: 5, discountBp: 1000, qty: 7 },
      { pricePerCents: 4, discountBp: 2000, totalCents: 28 },
    ],
    // MSRP $99.99 at $66.66: 33.3333… % → 33.33 %
    [
      { msrpCents: 9999, pricePerCents: 6666, qty: 3 },
      { pricePerCents: 6666, discountBp: 3333, totalCents: 19998 },
    ],
    // MSRP $8.00 at $7.99: 0.125 % is 12.5 basis points → 13 (half up)
    [
      { msrpCents: 800, pricePerCents: 799, qty: 10 },
      { pricePerCents: 799, discountBp: 13, totalCents: 7990 },
    ],
    // The price per wins over a discount sent with it.
    [
      { msrpCents: 10000, pricePerCents: 9000, discountBp: 5000, qty: 2 },
      { pricePerCents: 9000, discountBp: 1000, totalCents: 18000 },
    ],
  ])("%o → %o", (input, expected) => {
    expect(lineFigures(input)).toMatchObject(expected);
  });

  it("sums an invoice: $510.00 + $19.98 + 3 × $0.10", () => {
    const ls = [
      { msrpCents: 20000, discountBp: 1500, qty: 3 },
      { msrpCents: 9999, pricePerCents: 666, qty: 3 },
      { msrpCents: 10, qty: 3, discountBp: 0 },
    ].map(lineFigures);
    expect(invoiceFigures(ls)).toEqual({ amountCents: 60000 + 29997 + 30, discountCents: 9000 + 27999, totalCents: 51000 + 1998 + 30 });
    expect(formatUsd(invoiceFigures(ls).totalCents)).toBe("$530.28");
  });

  it.each([
    ["12", 1200],
    ["12.5", 1250],
    ["12.50", 1250],
    ["$1,234.56", 123456],
    [".5", 50],
    [0.1, 10],
    [12.34, 1234],
    ["12.345", null],
    ["-1", null],
    ["1e3", null],
    ["abc", null],
    [0.1 + 0.2, null],
    [Number.NaN, null],
  ])("parseMoney(%o) = %o", (input, expected) => {
    expect(parseMoney(input)).toBe(expected);
  });

  it.each([
    ["15", 1500],
    ["15.25", 1525],
    ["100", 10000],
    ["100.01", null],
    ["-5", null],
    ["1.234", null],
  ])("parsePercent(%o) = %o", (input, expected) => {
    expect(parsePercent(input)).toBe(expected);
  });
});
