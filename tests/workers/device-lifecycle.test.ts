import { env } from "cloudflare:test";
import { and, eq, inArray } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { api, auditRows, consoleWorker, db, fromEveryLog, login, ORIGIN, schema, workerNow } from "./helpers";

/**
 * Reseller stock, transfers and the device lifecycle through the admin API (decision 0022).
 * Demo data: ACME doors 1-12, BETA 13-16, RSL1 stock 17-36; ACME is RSL1's child, BETA is ROOT's.
 */
const A = "/api/admin";
const SECRET = String((env as unknown as { GATEWAY_SECRET: string }).GATEWAY_SECRET);
let root: string;
let reseller: string;
let acme: string;
let beta: string;
let auditor: string;

const day = (offset: number) => new Date(workerNow() + offset * 86_400_000).toISOString().slice(0, 10);
const device = async (id: number) => (await db().query.devices.findFirst({ where: eq(schema.devices.id, id) }))!;
const audit = async () => (await auditRows()).map((r) => `${r.companyId} ${r.name}${r.deviceId ? ` #${r.deviceId}` : ""}: ${r.summary}`);

/** The gateway feed's latest record of a device and its credential. */
async function feedOf(id: number) {
  const res = await consoleWorker.fetch(`${ORIGIN}/api/gateway/changes?limit=1000`, { headers: { Authorization: `Bearer ${SECRET}` } });
  let page = (await res.json()) as { changes: { type: string; op: string; id: string; data?: Record<string, unknown> }[]; cursor: string; more: boolean };
  const all = [...page.changes];
  while (page.more) {
    page = (await (
      await consoleWorker.fetch(`${ORIGIN}/api/gateway/changes?limit=1000&cursor=${page.cursor}`, { headers: { Authorization: `Bearer ${SECRET}` } })
    ).json()) as typeof page;
    all.push(...page.changes);
  }
  const last = (type: string) => all.filter((c) => c.type === type && c.id === String(id)).at(-1);
  return { device: last("device"), credential: last("boardCredential") };
}

beforeAll(async () => {
  [root, reseller, acme, beta, auditor] = await Promise.all([login("root"), login("var"), login("acme"), login("beta"), login("auditor")]);
});

describe("reseller panel calls", () => {
  it("lists only the caller's own children and its own stock", async () => {
    const kids = await api(reseller, "GET", `${A}/company/getChildCompanyList`);
    expect(kids.status).toBe(200);
    expect(kids.body.payload.map((k: { company_id: string }) => k.company_id)).toEqual(["ACME"]);
    expect(kids.body.payload[0]).toMatchObject({ company_name: expect.any(String), is_deactive: "0", totalDevices: 12 });
    const rootKids = await api(root, "GET", `${A}/company/getChildCompanyList`);
    expect(rootKids.body.payload.map((k: { company_id: string }) => k.company_id).sort()).toEqual(["BETA", "RSL1"]);
    const stock = await api(reseller, "GET", `${A}/company/getCompanyStock`);
    expect(stock.status).toBe(200);
    expect(stock.body.payload.company).toEqual({ company_name: expect.any(String), company_id: "RSL1" });
    expect(stock.body.payload.companyStock).toHaveLength(20);
    expect(stock.body.payload.companyStock[0]).toMatchObject({ serial_front: expect.any(String), serial_back: expect.any(String), board_type: expect.any(String) });
    // An ec company has no VAR panel.
    expect((await api(acme, "GET", `${A}/company/getChildCompanyList`)).status).toBe(403);
    expect((await api(acme, "GET", `${A}/company/getCompanyStock`)).status).toBe(403);
    // The reseller reads its child's devices, not a company outside its subtree.
    const acmeDevices = await api(reseller, "GET", `${A}/company/getCompanyRelatedDevices?company_id=3`);
    expect(acmeDevices.status).toBe(200);
    expect(acmeDevices.body.payload.details).toHaveLength(12);
    expect((await api(reseller, "GET", `${A}/company/getCompanyRelatedDevices?company_id=4`)).status).toBe(404);
  });

  it("validates a transfer with the spec's messages and changes nothing", async () => {
    const base = { fromCompany: 2, toCompany: 3, transferDevices: [17], status: "unconfigured" };
    const cases: [unknown, number, string][] = [
      [{ ...base, subscriptionTerm: 1 }, 400, "Required Shipping Date"],
      [{ ...base, shippingDate: day(3) }, 400, "Required Subscription Term"],
      [{ ...base, shippingDate: day(3), subscriptionTerm: 4 }, 400, "Required Subscription Term"],
      // Two days back is past in any zone (RSL1 runs in New York).
      [{ ...base, shippingDate: day(-2), subscriptionTerm: 1 }, 400, "The shipping date cannot be in the past"],
      [{ ...base, shippingDate: "2026-02-30", subscriptionTerm: 1 }, 400, "Required Shipping Date"],
      [{ ...base, transferDevices: [], shippingDate: day(3), subscriptionTerm: 1 }, 400, "Select at least one device to transfer"],
      [{ ...base, status: "stock" }, 400, "An end consumer company cannot receive stock"],
      // BETA is ROOT's child, not RSL1's: invisible.
      [{ ...base, toCompany: 4, shippingDate: day(3), subscriptionTerm: 1 }, 404, "The provided company code is invalid"],
      [{ ...base, toCompany: "BETA", shippingDate: day(3), subscriptionTerm: 1 }, 404, "The provided company code is invalid"],
      [{ ...base, fromCompany: 1, shippingDate: day(3), subscriptionTerm: 1 }, 404, "The provided company code is invalid"],
      // ACME's configured door 1 is not RSL1 stock.
      [{ ...base, transferDevices: [17, 1], shippingDate: day(3), subscriptionTerm: 1 }, 404, "This device does not belong to your company"],
    ];
    for (const [body, status, message] of cases) {
      const r = await api(reseller, "POST", `${A}/company/transferDevices`, body);
      expect(r.status, JSON.stringify(body)).toBe(status);
      expect(r.body.message).toBe(message);
    }
    expect(await device(17)).toMatchObject({ companyId: 2, status: "stock" });
    expect(await device(1)).toMatchObject({ companyId: 3, status: "configured" });
    expect((await api(acme, "POST", `${A}/company/transferDevices`, { ...base, shippingDate: day(3), subscriptionTerm: 1 })).status).toBe(403);
  });

  it("transfers stock to a child as unconfigured, with an audit entry on both sides", async () => {
    const r = await api(reseller, "POST", `${A}/company/transferDevices`, {
      fromCompany: "RSL1",
      toCompany: "ACME",
      transferDevices: [17, "18"],
      status: "unconfigured",
      shippingDate: day(5),
      subscriptionTerm: "2",
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.message).toBe("Stock transferred successfully");
    for (const id of [17, 18]) expect(await device(id)).toMatchObject({ companyId: 3, status: "unconfigured", shippingDate: day(5), startDate: day(5), subscriptionTerm: 2 });
    const transfer = (await db().select().from(schema.deviceTransfers)).at(-1)!;
    expect(transfer).toMatchObject({ companyId: 2, toCompanyId: 3, status: "unconfigured", shippingDate: day(5), subscriptionTerm: 2 });
    const items = await db().select().from(schema.deviceTransferItems).where(eq(schema.deviceTransferItems.transferId, transfer.id));
    expect(items.map((i) => i.deviceId).sort()).toEqual([17, 18]);
    const log = await audit();
    expect(log.some((l) => l.startsWith("2 Devices Transferred: 2 to "))).toBe(true);
    expect(log.some((l) => l.startsWith("3 Devices Transferred: 2 from "))).toBe(true);
    // Not stock any more: a second transfer of the same boards is refused.
    const again = await api(reseller, "POST", `${A}/company/transferDevices`, {
      toCompany: 3,
      transferDevices: [17],
      status: "unconfigured",
      shippingDate: day(5),
      subscriptionTerm: 1,
    });
    expect(again.status).toBe(404);
    // The feed carries the new owner, and an unconfigured door admits nobody.
    const f = await feedOf(17);
    expect(f.device?.data).toMatchObject({ companyId: "ACME", active: false });
    const rel = await api(reseller, "GET", `${A}/company/getCompanyRelatedDevices?company_id=3`);
    expect(rel.body.payload.details.filter((x: { status: string }) => x.status === "unconfigured").map((x: { start_date: string }) => x.start_date)).toEqual([day(5), day(5)]);
  });

  it("refuses a transfer to another reseller's child, by id or code, and changes nothing", async () => {
    const co = schema.companies;
    const base = { pocFirstName: "P", pocLastName: "Q", pocCountryCode: "001", pocPhoneNumber: "5550000000", discountPercentage: 15 };
    const [rs2] = await db()
      .insert(co)
      .values({ ...base, code: "RS2T", name: "Reseller Two", type: "var", parentId: 1, pocEmail: "rs2@two.example" })
      .returning({ id: co.id });
    const [ec2] = await db()
      .insert(co)
      .values({ ...base, code: "EC2T", name: "Customer Two", type: "ec", parentId: rs2.id, pocEmail: "ec2@two.example" })
      .returning({ id: co.id });
    const transfers = async () => (await db().select().from(schema.deviceTransfers)).length;
    const [before, logged] = [await transfers(), (await audit()).length];
    for (const toCompany of [ec2.id, "EC2T", rs2.id]) {
      const r = await api(reseller, "POST", `${A}/company/transferDevices`, {
        fromCompany: 2,
        toCompany,
        transferDevices: [19],
        status: "unconfigured",
        shippingDate: day(2),
        subscriptionTerm: 1,
      });
      expect(r.status, String(toCompany)).toBe(404);
      expect(r.body.message).toBe("The provided company code is invalid");
    }
    expect(await device(19)).toMatchObject({ companyId: 2, status: "stock", shippingDate: null });
    expect([await transfers(), (await audit()).length]).toEqual([before, logged]);
    // Nor does the reseller read that child's devices, and its panel lists only its own child.
    expect((await api(reseller, "GET", `${A}/company/getCompanyRelatedDevices?company_id=${ec2.id}`)).status).toBe(404);
    expect((await api(reseller, "GET", `${A}/company/getChildCompanyList`)).body.payload.map((k: { company_id: string }) => k.company_id)).toEqual(["ACME"]);
  });
});

describe("the VAR panel's company-type rule", () => {
  it("refuses an ec company even when its role holds the var_panel module", async () => {
    const admin = (await db().query.users.findFirst({ where: eq(schema.users.email, "admin@acme.example") }))!;
    await db().insert(schema.roleModules).values({ roleId: admin.roleId!, companyId: 3, moduleKey: "var_panel" });
    const ec = await login("acme");
    const before = await device(1);
    expect((await api(ec, "GET", `${A}/company/getChildCompanyList`)).status).toBe(403);
    expect((await api(ec, "GET", `${A}/company/getCompanyStock`)).status).toBe(403);
    const r = await api(ec, "POST", `${A}/company/transferDevices`, { toCompany: 3, transferDevices: [1], status: "unconfigured", shippingDate: day(2), subscriptionTerm: 1 });
    expect(r.status).toBe(403);
    expect(await device(1)).toEqual(before);
    await db()
      .delete(schema.roleModules)
      .where(and(eq(schema.roleModules.roleId, admin.roleId!), eq(schema.roleModules.moduleKey, "var_panel")));
  });
});

describe("registration", () => {
  it("registers rows into a reseller's stock and reports each row", async () => {
    const csv = [
      "serial_front,serial_back,device_type",
      "NEW-F-001,NEW-B-001,AB-100",
      "NEW-F-002,NEW-B-002,Mini Board",
      "bad!,NEW-B-003,AB-100",
      "NEW-F-001,NEW-B-009,AB-100",
      "SF1001,NEW-B-004,AB-100",
      "NEW-F-005,NEW-B-005,XX-1",
    ].join("\n");
    const r = await api(root, "POST", `${A}/device/registerDevices`, { companyId: "RSL1", csv });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.payload.registered).toBe(2);
    expect(r.body.payload.report.map((x: { status: string; message: string }) => `${x.status} ${x.message}`.trim())).toEqual([
      "registered",
      "registered",
      "rejected Invalid Serial Number",
      "rejected Device configuration already exists",
      "rejected Device configuration already exists",
      "rejected Invalid device type",
    ]);
    // A quoted cell never closed refuses the file (400) and registers nothing, rather than one long cell.
    const open = await api(root, "POST", `${A}/device/registerDevices`, { companyId: "RSL1", csv: 'NEW-F-006,NEW-B-006,AB-100\n"NEW-F-007,NEW-B-007,AB-100' });
    expect([open.status, open.body.message]).toEqual([400, "A quoted cell is never closed"]);
    expect(await db().query.devices.findFirst({ where: eq(schema.devices.serialFront, "NEW-F-006") })).toBeUndefined();
    const rows = await db()
      .select()
      .from(schema.devices)
      .where(inArray(schema.devices.serialFront, ["NEW-F-001", "NEW-F-002"]));
    expect(rows.map((x) => [x.companyId, x.status, x.serialBack, x.deviceTypeId])).toEqual([
      [2, "stock", "NEW-B-001", 1],
      [2, "stock", "NEW-B-002", 2],
    ]);
    // Each new board reaches the gateway feed (by the insert trigger), as a door that admits nobody.
    for (const row of rows) expect((await feedOf(row.id)).device?.data).toMatchObject({ companyId: "RSL1", active: false });
    expect(await audit()).toContain(
      "1 Devices Registered: 2 into the stock of Reseller One (RSL1)".replace("Reseller One", (await db().query.companies.findFirst({ where: eq(schema.companies.id, 2) }))!.name),
    );
  });

  it("registers one board into the root's own stock, refuses bad targets and non-root callers", async () => {
    const one = await api(root, "POST", `${A}/device/registerDevices`, { companyId: 1, devices: [{ serialFront: "ROOT-F-1", serialBack: "ROOT-B-1", deviceType: "AB-100" }] });
    expect(one.status).toBe(200);
    const dup = await api(root, "POST", `${A}/device/registerDevices`, { companyId: 1, devices: [{ serialFront: "root-f-1", serialBack: "ROOT-B-2", deviceType: "AB-100" }] });
    expect(dup.status).toBe(422);
    expect(dup.body.message).toBe("Device configuration already exists");
    const bad = await api(root, "POST", `${A}/device/registerDevices`, { companyId: 1, devices: [{ serialFront: "x", serialBack: "ROOT-B-3", deviceType: "AB-100" }] });
    expect(bad.status).toBe(422);
    expect(bad.body.message).toBe("Invalid Serial Number");
    // ACME is an ec company: it has no stock.
    expect(
      (await api(root, "POST", `${A}/device/registerDevices`, { companyId: "ACME", devices: [{ serialFront: "ROOT-F-4", serialBack: "ROOT-B-4", deviceType: "AB-100" }] })).status,
    ).toBe(404);
    expect(
      (await api(reseller, "POST", `${A}/device/registerDevices`, { companyId: "RSL1", devices: [{ serialFront: "VAR-F-1", serialBack: "VAR-B-1", deviceType: "AB-100" }] }))
        .status,
    ).toBe(403);
    expect(await db().query.devices.findFirst({ where: eq(schema.devices.serialFront, "VAR-F-1") })).toBeUndefined();
  });
});

describe("configuration", () => {
  it("configures an unconfigured device, issues its secret once and feeds the hash", async () => {
    const nameTaken = await api(acme, "POST", `${A}/device/configureDevice`, { id: 17, fullName: "main entrance", displayName: "ME2" });
    expect(nameTaken.status).toBe(422);
    expect(nameTaken.body.message).toBe("Device configuration already exists");
    const noName = await api(acme, "POST", `${A}/device/configureDevice`, { id: 17, displayName: "X" });
    expect(noName.status).toBe(400);
    expect(noName.body.message).toBe("Required full name");
    expect((await api(beta, "POST", `${A}/device/configureDevice`, { id: 17, fullName: "Side Gate", displayName: "SG" })).body.message).toBe(
      "This device does not belong to your company",
    );
    expect((await api(auditor, "POST", `${A}/device/configureDevice`, { id: 17, fullName: "Side Gate", displayName: "SG" })).status).toBe(403);
    expect(await device(17)).toMatchObject({ status: "unconfigured", boardSecretHash: null });

    const r = await api(acme, "POST", `${A}/device/configureDevice`, {
      id: 17,
      fullName: "Side Gate",
      displayName: "SG",
      relockTrigger: "Timer",
      relockTimer: "7",
      bluetoothPowerLevel: 4,
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.message).toBe("Device configured successfully");
    const secret = r.body.payload.board_secret as string;
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const row = await device(17);
    expect(row).toMatchObject({ status: "configured", fullName: "Side Gate", displayName: "SG", relockTimer: 7, bluetoothPowerLevel: 4 });
    expect(row.boardSecretHash).toMatch(/^hmac-sha256\$[^$]+\$[^$]+$/);
    expect(row.boardSecretHash).not.toContain(secret);
    const f = await feedOf(17);
    expect(f.device?.data).toMatchObject({ active: true, name: "Side Gate" });
    expect(f.credential?.data).toEqual({ deviceId: "17", hash: row.boardSecretHash });
    expect((await api(acme, "POST", `${A}/device/configureDevice`, { id: 17, fullName: "Side Gate 2", displayName: "SG2" })).body.message).toBe(
      "Device configuration already exists",
    );
    expect(await audit()).toContain("3 Device Configured #17: Side Gate (" + row.serialNumber + ")");
  });

  it("rotates the secret, removes the configuration only with the display name, and retires", async () => {
    const before = (await device(17)).boardSecretHash;
    expect((await api(beta, "POST", `${A}/device/rotateDeviceSecret`, { id: 17 })).status).toBe(404);
    const rot = await api(acme, "POST", `${A}/device/rotateDeviceSecret`, { id: 17 });
    expect(rot.status).toBe(200);
    expect(rot.body.message).toBe("Device secret rotated successfully");
    const after = (await device(17)).boardSecretHash;
    expect(after).not.toBe(before);
    expect((await feedOf(17)).credential?.data).toEqual({ deviceId: "17", hash: after });
    expect((await api(acme, "POST", `${A}/device/rotateDeviceSecret`, { id: 18 })).body.message).toBe("Device configuration could not be found");

    const wrong = await api(acme, "POST", `${A}/device/removeDeviceConfiguration`, { id: 17, displayName: "nope" });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe("you must enter the device's display name to remove the configuration");
    expect((await device(17)).status).toBe("configured");
    const removed = await api(acme, "POST", `${A}/device/removeDeviceConfiguration`, { id: 17, displayName: "sg" });
    expect(removed.status).toBe(200);
    expect(await device(17)).toMatchObject({ status: "unconfigured", fullName: "", boardSecretHash: null });
    const f = await feedOf(17);
    expect(f.device?.data).toMatchObject({ active: false });
    expect(f.credential?.op).toBe("delete");

    const historyOf2 = async () =>
      (await fromEveryLog((log) => log.select({ id: schema.activityLogs.id }).from(schema.activityLogs).where(eq(schema.activityLogs.targetDeviceId, 2)))).length;
    const history = await historyOf2();
    expect(history).toBeGreaterThan(0);
    expect((await api(beta, "POST", `${A}/device/retireDevice`, { id: 2 })).status).toBe(404);
    expect((await device(2)).status).toBe("configured");
    const retired = await api(acme, "POST", `${A}/device/retireDevice`, { id: 2 });
    expect(retired.status).toBe(200);
    expect(retired.body.message).toBe("Device retired successfully");
    expect(await device(2)).toMatchObject({ status: "retired", boardSecretHash: null, fullName: "Loading Dock", deletedAt: null });
    expect((await feedOf(2)).device?.data).toMatchObject({ active: false });
    // Retiring keeps the device and its history: every earlier entry is still there, plus the retirement.
    expect(await historyOf2()).toBe(history + 1);
    const listed = await api(acme, "GET", `${A}/user/getDeviceDetails?deviceId=2`);
    expect(listed.status).toBe(200);
    expect(listed.body.payload).toMatchObject({ full_name: "Loading Dock", status: "retired" });
    expect((await api(acme, "POST", `${A}/device/retireDevice`, { id: 2 })).body.message).toBe("Device configuration could not be found");
    const log = await audit();
    expect(log.filter((l) => l.startsWith("3 Device Secret Rotated #17"))).toHaveLength(1);
    expect(log.filter((l) => l.startsWith("3 Device Configuration Removed #17"))).toHaveLength(1);
    expect(log).toContain("3 Device Retired #2: Loading Dock (SN-100002)");
  });

  it("lets an installer with the devices module configure, but not retire; without the flag a read-only role is refused", async () => {
    const auditorRow = (await db().query.users.findFirst({ where: eq(schema.users.email, "auditor@acme.example") }))!;
    const body = { id: 18, fullName: "Installer Door", displayName: "ID" };
    expect((await api(auditor, "POST", `${A}/device/configureDevice`, body)).status).toBe(403);
    expect(await device(18)).toMatchObject({ status: "unconfigured", boardSecretHash: null });
    await db().update(schema.users).set({ isInstaller: true }).where(eq(schema.users.id, auditorRow.id));
    const r = await api(auditor, "POST", `${A}/device/configureDevice`, body);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.payload.board_secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await device(18)).toMatchObject({ status: "configured", fullName: "Installer Door" });
    expect((await api(auditor, "POST", `${A}/device/retireDevice`, { id: 18 })).status).toBe(403);
    expect((await device(18)).status).toBe("configured");
    await db().update(schema.users).set({ isInstaller: false }).where(eq(schema.users.id, auditorRow.id));
  });
});
