/**
 * Devices and device groups to CSV (issue 32, decision 0089), through the admin API and the console's
 * links against the demo D1: the header and a known demo row; only the caller's company; a caller
 * without the module gets 403 and no file; formula cells kept as text; the devices file read back by the
 * registration's own parser gives the same boards.
 */
import { and, eq, isNull } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { parseRegisterCsv } from "~/schemas/device-lifecycle";
import { api, consoleWorker, createDeviceGroup, db, login, ORIGIN, pageCookie, schema } from "./helpers";

const ACME = 3;
const BETA = 4;
const d = schema.devices;
const DEVICES_HEADER = "serial_front,serial_back,device_type";
const GROUPS_HEADER = "full_name,display_name,status,days,all_day,start,end,time_zone,on_holidays,holiday_calendar,doors";

let admin: string;
let noDevices: string;
beforeAll(async () => {
  admin = await login("acme");
  // An API key of the users module alone: neither devices nor device groups.
  const key = await api(admin, "POST", "/api/admin/apiKey/createApiKey", {
    name: "Users only",
    modules: ["users"],
    permission_add: true,
    permission_modify: true,
    permission_delete: true,
    expires_in_days: null,
  });
  expect(key.status, JSON.stringify(key.body)).toBe(200);
  noDevices = `Bearer ${key.body.payload.key}`;
});

/** A GET with an admin API token or key, or (`page`) a console session's cookie. */
const get = (auth: string, path: string, page = false) => consoleWorker.fetch(`${ORIGIN}${path}`, { headers: page ? { Cookie: auth } : { Authorization: auth } });
const lines = (text: string) => text.trimEnd().split("\r\n");

describe("the devices export", () => {
  it("writes the registration's columns for every live device of the company, and only of it", async () => {
    const res = await get(admin, "/api/admin/device/exportDevices");
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("Content-Disposition")).toBe('attachment; filename="devices.csv"');
    const all = lines(await res.text());
    expect(all[0]).toBe(`\uFEFF${DEVICES_HEADER}`);
    // Demo device 1, "Main Entrance", an Access Board.
    expect(all).toContain("SF1001,SB9001,AB-100");
    const live = await db()
      .select({ front: d.serialFront })
      .from(d)
      .where(and(eq(d.companyId, ACME), isNull(d.deletedAt)));
    expect(all.length - 1).toBe(live.length);
    const beta = await db().select({ front: d.serialFront, back: d.serialBack }).from(d).where(eq(d.companyId, BETA));
    expect(beta.length).toBeGreaterThan(0);
    for (const b of beta)
      expect(
        all.some((l) => l.includes(b.front) || l.includes(b.back)),
        b.front,
      ).toBe(false);
  });

  it("keeps a formula-like cell as text, and the registration's parser reads the file back to the same boards", async () => {
    await db().insert(schema.deviceTypes).values({ id: 90, deviceCode: "=CMD-1", deviceType: "Formula Board" });
    await db()
      .insert(d)
      .values({ id: 900, companyId: ACME, deviceTypeId: 90, fullName: "Formula", serialNumber: "EXP-F900", serialFront: "EXP-F900", serialBack: "EXP-B900", status: "stock" });
    const text = await (await get(admin, "/api/admin/device/exportDevices")).text();
    expect(lines(text)).toContain("EXP-F900,EXP-B900,'=CMD-1");
    const rows = await db()
      .select({ id: d.id, serialFront: d.serialFront, serialBack: d.serialBack, deviceType: schema.deviceTypes.deviceCode })
      .from(d)
      .leftJoin(schema.deviceTypes, eq(schema.deviceTypes.id, d.deviceTypeId))
      .where(and(eq(d.companyId, ACME), isNull(d.deletedAt)))
      .orderBy(d.id);
    expect(parseRegisterCsv(text)).toEqual({ ok: true, rows: rows.map((r) => ({ serialFront: r.serialFront, serialBack: r.serialBack, deviceType: r.deviceType })) });
  });

  it("takes the list's filters on /devices' link", async () => {
    const cookie = await pageCookie("acme");
    // Type 3, the Bluetooth Lock: demo devices 4, 8 and 12.
    const res = await get(cookie, "/resources/devices-csv?type=3", true);
    expect(res.status).toBe(200);
    expect(lines(await res.text())).toEqual([`\uFEFF${DEVICES_HEADER}`, "SF1004,SB9004,BL-1", "SF1008,SB9008,BL-1", "SF1012,SB9012,BL-1"]);
  });
});

describe("the device groups export", () => {
  it("writes a demo group's names, schedule, holidays and doors, and no other company's group", async () => {
    const res = await get(admin, "/api/admin/deviceGroup/exportDeviceGroups");
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Disposition")).toBe('attachment; filename="device_groups.csv"');
    const all = lines(await res.text());
    expect(all[0]).toBe(`\uFEFF${GROUPS_HEADER}`);
    // Demo group 1 on devices 1, 5 and 7; group 3 all day; group 4 deactivated; group 5 is BETA's.
    expect(all[1]).toBe("Office Hours,Office,active,mon|tue|wed|thu|fri,no,08:00,18:00,Europe/Madrid,ignore,,Lab B|Main Entrance|Office 2F");
    expect(all).toContain("Labs,Labs,active,mon|tue|wed|thu|fri,yes,,,America/New_York,ignore,,Lab A|Lab B|Server Room");
    expect(all).toContain("Weekend Crew,Weekend,inactive,sat|sun,no,09:00,14:00,Europe/Madrid,ignore,,Main Entrance|Warehouse");
    expect(all.some((l) => l.startsWith("All Doors,"))).toBe(false);
  });

  it("keeps formula-like names as text and escapes '|' in a door's name; names the holiday calendar", async () => {
    await db().update(d).set({ fullName: "Gate | North" }).where(eq(d.id, 2));
    const id = await createDeviceGroup(admin, "=HYPERLINK(1)", [2, 3], { display_name: "@Lobby" });
    await db().update(schema.deviceGroups).set({ holidayCalendarId: 1, onHolidays: "closed" }).where(eq(schema.deviceGroups.id, id));
    const all = lines(await (await get(admin, "/api/admin/deviceGroup/exportDeviceGroups")).text());
    expect(all).toContain("'=HYPERLINK(1),'@Lobby,active,mon|tue|wed|thu|fri,no,08:00,18:00,Europe/Madrid,closed,Office holidays,Gate \\| North|Server Room");
  });
});

describe("rights", () => {
  it("answers 403 and no file to a caller without the module", async () => {
    for (const path of ["/api/admin/device/exportDevices", "/api/admin/deviceGroup/exportDeviceGroups"]) {
      const r = await get(noDevices, path);
      expect(r.status, path).toBe(403);
      expect(r.headers.get("Content-Type"), path).not.toMatch(/csv/);
    }
    // The auditor reads devices but not device groups.
    const auditor = await pageCookie("auditor");
    const groups = await get(auditor, "/resources/device-groups-csv", true);
    expect(groups.status).toBe(403);
    expect(await groups.text()).not.toContain("Office Hours");
    expect((await get(auditor, "/resources/devices-csv", true)).status).toBe(200);
  });
});
