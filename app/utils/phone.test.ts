import { describe, expect, it } from "vitest";
import { callingCode, countryOptions, maskUs, nationalForField, parsePhone, regionForCallingCode, regionOf, splitPhone, toE164 } from "./phone";

describe("callingCode", () => {
  it("reads the usual shapes of a calling code", () => {
    for (const v of ["001", "1", "+1", "US"]) expect(callingCode(v)).toBe("1");
    for (const v of ["034", "34", "+34", "0034", "es", "ES"]) expect(callingCode(v)).toBe("34");
    expect(callingCode("351")).toBe("351");
  });
  it("refuses what names no country", () => {
    for (const v of ["", "0", "000", "999", "1234", "ZZ", "abc", null, undefined]) expect(callingCode(v)).toBeNull();
  });
});

describe("parsePhone", () => {
  it("accepts a Spanish mobile typed nationally, with spaces, or internationally", () => {
    for (const [cc, n] of [
      ["034", "612345678"],
      ["34", "612 345 678"],
      ["ES", "612-34-56-78"],
      ["001", "+34 612 345 678"],
      ["", "0034612345678"],
    ])
      expect(parsePhone(cc, n)).toEqual({ e164: "+34612345678" });
  });
  it("keeps the spec's US rule: 10 digits, masked or not, with or without the leading 1", () => {
    expect(parsePhone("001", "555-123-4567")).toEqual({ e164: "+15551234567" });
    expect(parsePhone("1", "15551234567")).toEqual({ e164: "+15551234567" });
    expect(parsePhone("US", "+1 555 123 4567")).toEqual({ e164: "+15551234567" });
    expect(parsePhone("001", "555-123-456")).toEqual({ problem: "number" });
    expect(parsePhone("001", "555-123-45678")).toEqual({ problem: "number" });
  });
  it("refuses bad input with the part that is wrong", () => {
    expect(parsePhone("034", "12345")).toEqual({ problem: "number" });
    expect(parsePhone("034", "61234567a")).toEqual({ problem: "number" });
    expect(parsePhone("034", "")).toEqual({ problem: "number" });
    expect(parsePhone("034", "6".repeat(40))).toEqual({ problem: "number" });
    expect(parsePhone("034", "61+2345678")).toEqual({ problem: "number" });
    expect(parsePhone("999", "612345678")).toEqual({ problem: "country" });
    expect(parsePhone("", "612345678")).toEqual({ problem: "country" });
    expect(toE164("034", "0612345678")).toBeNull();
  });
});

describe("wire and display", () => {
  it("splits E.164 into the spec's pair", () => {
    expect(splitPhone("+34612345678")).toEqual({ countryCode: "034", phoneNumber: "612345678" });
    expect(splitPhone("+15551234567")).toEqual({ countryCode: "001", phoneNumber: "5551234567" });
    expect(splitPhone("+351912345678")).toEqual({ countryCode: "351", phoneNumber: "912345678" });
    expect(splitPhone("")).toEqual({ countryCode: "", phoneNumber: "" });
  });
  it("fills the number field: the US mask for +1, national format elsewhere", () => {
    expect(nationalForField("+15551234567")).toBe("555-123-4567");
    expect(nationalForField("+34612345678")).toBe("612 34 56 78");
    expect(maskUs("5551234567999")).toBe("555-123-4567");
  });
  it("knows the picker's regions", () => {
    expect(regionOf("+34612345678")).toBe("ES");
    expect(regionOf("+15551234567")).toBe("US");
    expect(regionForCallingCode("001")).toBe("US");
    expect(regionForCallingCode("44")).toBe("GB");
    expect(regionForCallingCode("7")).toBe("RU");
    const es = countryOptions("es");
    expect(es.find((c) => c.region === "ES")).toEqual({ region: "ES", callingCode: "34", name: "España" });
    expect(countryOptions("en").find((c) => c.region === "DE")?.name).toBe("Germany");
  });
});
