import { beforeAll, describe, expect, it } from "vitest";
import { demoDates } from "../../db/seed/clock";
import { api, login, seedNow } from "./helpers";

const BASE = "/api/admin";
let acme: string;
let auditor: string;

beforeAll(async () => {
  [acme, auditor] = await Promise.all([login("acme"), login("auditor")]);
});

describe("GET /user/getDeviceDetails", () => {
  it("returns the spec's device fields with scheduled open, holders and groups", async () => {
    // Device 1 (Main Entrance): Timer re-lock, scheduled open on, in groups 1, 2 and 4.
    const r = await api(acme, "GET", `${BASE}/user/getDeviceDetails?deviceId=1`);
    expect(r.status).toBe(200);
    const p = r.body.payload;
    expect(p).toMatchObject({
      id: 1,
      full_name: "Main Entrance",
      serial_number: "SN-100001",
      device_type: "Access Board",
      relock_trigger: "Timer",
      relock_timer: 5,
      bluetooth_power_level: 2,
      low_battery: false,
      schedule_open: true,
      fpi: true,
      sensor1_open_name: "Door Open",
    });
    expect(p.schedule).toMatchObject({ Monday: "08:00 - 18:00", Saturday: "Closed" });
    const { christmas, newYearsEve } = demoDates(seedNow());
    expect(p.exceptions.map((e: { exceptionDate: string }) => e.exceptionDate)).toEqual([christmas, newYearsEve].sort());
    expect(p.exceptions.find((e: { exceptionDate: string }) => e.exceptionDate === christmas).exceptionsDays).toBe("Closed");
    expect(p.users).toContainEqual({ user_id: 3, display_name: "Admin, Alice" });
    expect(p.deviceGroup.map((g: { id: number }) => g.id).sort()).toEqual([1, 2, 4]);
  });

  it("reports the trigger mode and DNORT of a non-timer device and its low battery", async () => {
    const door = await api(acme, "GET", `${BASE}/user/getDeviceDetails?deviceId=3`);
    expect(door.body.payload).toMatchObject({ relock_trigger: "Door Close", trigger_mode: "Sensor 1", dnort_time: 10, schedule_open: false });
    const lowBattery = await api(acme, "GET", `${BASE}/user/getDeviceDetails?deviceId=7`);
    expect(lowBattery.body.payload.low_battery).toBe(true);
  });

  it("answers 404 for another company's device and 400 without an id", async () => {
    expect((await api(acme, "GET", `${BASE}/user/getDeviceDetails?deviceId=13`)).status).toBe(404);
    expect((await api(acme, "GET", `${BASE}/user/getDeviceDetails`)).status).toBe(400);
  });

  it("is open to a read-only role with the devices module", async () => {
    expect((await api(auditor, "GET", `${BASE}/user/getDeviceDetails?deviceId=1`)).status).toBe(200);
  });
});

describe("GET /user/getLastReportedLocation", () => {
  it("returns the last position and when it was reported", async () => {
    const r = await api(acme, "GET", `${BASE}/user/getLastReportedLocation?deviceId=1`);
    expect(r.status).toBe(200);
    expect(r.body.payload.latitude).toBeCloseTo(40.45, 0);
    expect(r.body.payload.longitude).toBeLessThan(-3.6);
    expect(typeof r.body.payload.reportedAt).toBe("number");
  });

  it("answers 404 across companies and 401 without a token", async () => {
    expect((await api(acme, "GET", `${BASE}/user/getLastReportedLocation?deviceId=14`)).status).toBe(404);
    expect((await api(null, "GET", `${BASE}/user/getLastReportedLocation?deviceId=1`)).status).toBe(401);
  });
});

describe("OpenAPI", () => {
  it("documents the device and device-group calls", async () => {
    const r = await api(null, "GET", "/api/openapi.json");
    expect(r.status).toBe(200);
    for (const path of ["/user/getDeviceDetails", "/deviceGroup/createDeviceGroup", "/user/deleteDeviceGroup"]) {
      expect(Object.keys(r.body.paths)).toContain(`${BASE}${path}`);
    }
  });
});
