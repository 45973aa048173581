import { describe, expect, it } from "vitest";
import { isValidLocation, mobileTicketSchema, supportNoteSchema } from "./support";

describe("isValidLocation", () => {
  it("needs both inside their ranges, strictly", () => {
    expect(isValidLocation(40.4, -3.7)).toBe(true);
    expect(isValidLocation(0, 0)).toBe(true);
    expect(isValidLocation(90, 0)).toBe(false);
    expect(isValidLocation(-90, 0)).toBe(false);
    expect(isValidLocation(0, 180)).toBe(false);
    expect(isValidLocation(0, -180)).toBe(false);
    expect(isValidLocation(200, 10)).toBe(false);
    expect(isValidLocation(null, 10)).toBe(false);
    expect(isValidLocation(10, undefined)).toBe(false);
  });
});

describe("supportNoteSchema", () => {
  it("refuses an empty note and trims the rest", () => {
    expect(supportNoteSchema.safeParse({ notes: "   " }).error?.issues[0].message).toBe("Note is required");
    expect(supportNoteSchema.safeParse({}).error?.issues[0].message).toBe("Note is required");
    expect(supportNoteSchema.parse({ notes: " ok " }).notes).toBe("ok");
  });
});

describe("mobileTicketSchema", () => {
  it("takes the phone's flags in their usual shapes, with defaults", () => {
    const v = mobileTicketSchema.parse({ ticketMode: "0", bluetoothPermission: "0", locationPermission: true, devices: [{ deviceId: "4" }] });
    expect(v).toMatchObject({ ticketMode: 0, bluetoothStatus: "On", bluetoothPermission: false, locationPermission: true, brand: "" });
    expect(v.devices).toEqual([{ deviceId: 4, kind: "device", visible: false, sentinel: false }]);
  });

  it("accepts the range edges, refuses outside them and a lone coordinate", () => {
    expect(mobileTicketSchema.safeParse({ latitude: 90, longitude: -180 }).success).toBe(true);
    for (const bad of [{ latitude: 90.01, longitude: 0 }, { latitude: 0, longitude: 180.5 }, { latitude: 1 }, { longitude: 1 }])
      expect(mobileTicketSchema.safeParse(bad).error?.issues[0].message).toBe("Invalid latitude or longitude");
  });
});
