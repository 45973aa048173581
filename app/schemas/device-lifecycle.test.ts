import { describe, expect, it } from "vitest";
import { LIFECYCLE_MSG, parseRegisterCsv, SERIAL_RE, transferSchema } from "./device-lifecycle";

describe("parseRegisterCsv", () => {
  const rows = (text: string) => {
    const r = parseRegisterCsv(text);
    if (!r.ok) throw new Error("refused");
    return r.rows;
  };

  it("skips the header and blank lines, reads commas, semicolons and tabs, drops quotes", () => {
    expect(rows('serial_front,serial_back,device_type\r\n\r\nF-1,B-1,AB-100\n"F-2",B-2,Mini Board\nF-4')).toEqual([
      { serialFront: "F-1", serialBack: "B-1", deviceType: "AB-100" },
      { serialFront: "F-2", serialBack: "B-2", deviceType: "Mini Board" },
      { serialFront: "F-4", serialBack: "", deviceType: "" },
    ]);
    expect(rows('"F-2";"B-2";Mini Board')).toEqual([{ serialFront: "F-2", serialBack: "B-2", deviceType: "Mini Board" }]);
    expect(rows("F-3\tB-3\tMB-50\nF-5\tB-5\tMB-50")).toEqual([
      { serialFront: "F-3", serialBack: "B-3", deviceType: "MB-50" },
      { serialFront: "F-5", serialBack: "B-5", deviceType: "MB-50" },
    ]);
  });

  it("reads quoted cells that hold the separator or a quote, and a byte-order mark", () => {
    expect(rows('\uFEFFserial_front,serial_back,device_type\n"F-1","B-1","Mini Board, rev ""2"""')).toEqual([
      { serialFront: "F-1", serialBack: "B-1", deviceType: 'Mini Board, rev "2"' },
    ]);
  });

  it("refuses a quoted cell that is never closed instead of reading the rest as one cell", () => {
    expect(parseRegisterCsv('F-1,B-1,AB-100\n"F-2,B-2,AB-100\nF-3,B-3,AB-100')).toEqual({ ok: false });
  });

  it("drops the apostrophe the devices export puts before a formula-like cell", () => {
    expect(rows("serial_front,serial_back,device_type\r\nF-1,B-1,'=CMD-1\r\nF-2,B-2,'AB")).toEqual([
      { serialFront: "F-1", serialBack: "B-1", deviceType: "=CMD-1" },
      { serialFront: "F-2", serialBack: "B-2", deviceType: "'AB" },
    ]);
  });

  it("keeps a first line that names no column", () => {
    expect(rows("F-1,B-1,AB-100")).toHaveLength(1);
  });
});

describe("serial numbers", () => {
  it("are 4 to 32 letters, digits or inner dashes", () => {
    for (const ok of ["AB12", "SF1001", "E2E-X-F1", "A".repeat(32)]) expect(SERIAL_RE.test(ok), ok).toBe(true);
    for (const bad of ["ABC", "-AB1", "AB1-", "AB 12", "ab!1", "A".repeat(33)]) expect(SERIAL_RE.test(bad), bad).toBe(false);
  });
});

describe("transferSchema", () => {
  const schema = transferSchema("2026-11-23");
  const base = { toCompany: 3, transferDevices: [1] };
  const first = (input: unknown) => {
    const r = schema.safeParse(input);
    return r.success ? "ok" : r.error.issues[0].message;
  };

  it("needs a shipping date from today on and a term of 1, 2 or 3 unless sent as stock", () => {
    expect(first({ ...base, subscriptionTerm: 1 })).toBe(LIFECYCLE_MSG.shippingRequired);
    expect(first({ ...base, shippingDate: "2026-11-22", subscriptionTerm: 1 })).toBe(LIFECYCLE_MSG.shippingPast);
    expect(first({ ...base, shippingDate: "2026-11-23", subscriptionTerm: "" })).toBe(LIFECYCLE_MSG.termRequired);
    expect(first({ ...base, shippingDate: "2026-11-23", subscriptionTerm: 4 })).toBe(LIFECYCLE_MSG.termRequired);
    expect(first({ ...base, shippingDate: "2026-13-01", subscriptionTerm: 1 })).toBe(LIFECYCLE_MSG.shippingRequired);
    expect(first({ ...base, shippingDate: "2026-11-23", subscriptionTerm: "3" })).toBe("ok");
    expect(first({ ...base, transferDevices: [], shippingDate: "2026-11-23", subscriptionTerm: 1 })).toBe(LIFECYCLE_MSG.noDevices);
  });

  it("sends stock without date or term, whatever was typed", () => {
    const r = schema.parse({ ...base, status: "stock", shippingDate: "2020-01-01", subscriptionTerm: 9 });
    expect(r).toMatchObject({ status: "stock", shippingDate: null, subscriptionTerm: null });
  });
});
