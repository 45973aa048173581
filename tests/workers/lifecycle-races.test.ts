import { env } from "cloudflare:test";
import { eq, gt, inArray } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { configureDevice, registerDevices, removeDeviceConfiguration, retireDevice } from "../../app/services/device-lifecycle.server";
import { transferDevices } from "../../app/services/device-stock.server";
import { authFromToken, type Auth } from "../../app/utils/auth-guards.server";
import { type ServiceError } from "../../app/utils/errors.server";
import { auditsNamed, db, fromEveryLog, login, schema, workerNow } from "./helpers";

/**
 * Two calls changing one board at once (decision 0022): the board changes once, and only the call
 * that changed it writes its records and audit entries; the other gets the spec's message.
 * Demo data: RSL1 (id 2) has stock boards 17-36; ACME (id 3) is its child.
 *
 * The two calls run the services side by side on the real D1: both issue the same queries in the
 * same order, so both pass their checks before either batch runs (through the API the Worker
 * happens to finish one request first, and the race would go untested).
 */
let root: Auth;
let reseller: Auth;
let acme: Auth;
let otherChild: number;

/** Both calls at once: each settles as `{status, message}` (200 for a success). */
async function both(run: (i: number) => Promise<unknown>) {
  const settled = await Promise.allSettled([run(0), run(1)]);
  return settled.map((r) =>
    r.status === "fulfilled"
      ? { status: 200, message: (r.value as { message: string }).message, value: r.value }
      : { status: (r.reason as ServiceError).status ?? 500, message: String((r.reason as Error).message), value: r.reason as ServiceError },
  );
}

const day = (offset: number) => new Date(workerNow() + offset * 86_400_000).toISOString().slice(0, 10);
const a = schema.activityLogs;
/** Audit entries of one kind written after `since` (an activity id). */
const entries = async (name: string, since: number) => auditsNamed(name, gt(a.id, since));
const lastActivity = async () => (await fromEveryLog((log) => log.select({ id: a.id }).from(a))).reduce((m, r) => Math.max(m, r.id), 0);
const statuses = (rs: { status: number }[]) => rs.map((r) => r.status).sort();
const now = () => workerNow();

beforeAll(async () => {
  const authOf = async (who: "root" | "var" | "acme") => (await authFromToken(db(), env as never, await login(who), workerNow()))!;
  [root, reseller, acme] = [await authOf("root"), await authOf("var"), await authOf("acme")];
  // A second child of RSL1, so the two transfers have different targets.
  const acmeRow = (await db().query.companies.findFirst({ where: eq(schema.companies.id, 3) }))!;
  const { id: _id, ...rest } = acmeRow;
  const [row] = await db()
    .insert(schema.companies)
    .values({ ...rest, code: "ACM2", name: "Acme Two", pocEmail: "two@acme2.example" })
    .returning({ id: schema.companies.id });
  otherChild = row.id;
});

describe("simultaneous lifecycle changes of one board", () => {
  it("transfers the boards once: one transfer record, one item and one audit entry per side, the other call refused per row", async () => {
    const since = await lastActivity();
    const transfersBefore = (await db().select().from(schema.deviceTransfers)).length;
    const body = (toCompany: number) => ({ toCompany, transferDevices: [20, 21], status: "unconfigured", shippingDate: day(3), subscriptionTerm: 1 });
    const rs = await both((i) => transferDevices(db(), reseller, body([3, otherChild][i]), now()));
    expect(statuses(rs), JSON.stringify(rs)).toEqual([200, 404]);
    const loser = rs.find((r) => r.status === 404)!;
    expect(loser.message).toBe("This device does not belong to your company");
    expect((loser.value as ServiceError).details.payload).toEqual({
      report: [
        { id: 20, transferred: false, message: "This device does not belong to your company" },
        { id: 21, transferred: false, message: "This device does not belong to your company" },
      ],
    });

    const transfers = (await db().select().from(schema.deviceTransfers)).slice(transfersBefore);
    expect(transfers).toHaveLength(1);
    const winner = transfers[0].toCompanyId;
    expect(winner).toBe(rs[0].status === 200 ? 3 : otherChild);
    const items = await db()
      .select()
      .from(schema.deviceTransferItems)
      .where(inArray(schema.deviceTransferItems.deviceId, [20, 21]));
    expect(items.map((i) => [i.transferId, i.deviceId]).sort()).toEqual([
      [transfers[0].id, 20],
      [transfers[0].id, 21],
    ]);
    for (const id of [20, 21]) expect(await db().query.devices.findFirst({ where: eq(schema.devices.id, id) })).toMatchObject({ companyId: winner, status: "unconfigured" });
    const logged = await entries("Devices Transferred", since);
    expect(logged.map((l) => l.companyId).sort((x, y) => x - y)).toEqual([2, winner].sort((x, y) => x - y));
    for (const l of logged) expect(JSON.parse(l.details).devices).toEqual([20, 21]);
  });

  it("configures a device once: the losing call's secret is not issued and only one entry is written", async () => {
    await transferDevices(db(), reseller, { toCompany: 3, transferDevices: [22, 23], status: "unconfigured", shippingDate: day(3), subscriptionTerm: 1 }, now());
    const since = await lastActivity();
    const rs = await both((i) => configureDevice(db(), acme, { id: 22, fullName: ["North Door", "South Door"][i], displayName: ["North", "South"][i] }, now()));
    expect(statuses(rs), JSON.stringify(rs)).toEqual([200, 409]);
    const won = rs.find((r) => r.status === 200)!;
    // The loser passed the checks and its write changed nothing: the spec's text for that case.
    expect(rs.find((r) => r.status === 409)!.message).toBe("Device configuration was not added successfully");
    expect((await db().query.devices.findFirst({ where: eq(schema.devices.id, 22) }))!.displayName).toBe((won.value as { displayName: string }).displayName);
    expect(await entries("Device Configured", since)).toHaveLength(1);
  });

  it("removes a configuration and retires a device once each", async () => {
    const { displayName } = (await db().query.devices.findFirst({ where: eq(schema.devices.id, 22) }))!;
    let since = await lastActivity();
    const rm = await both(() => removeDeviceConfiguration(db(), acme, { id: 22, displayName }, now()));
    expect(statuses(rm), JSON.stringify(rm)).toEqual([200, 404]);
    expect(await entries("Device Configuration Removed", since)).toHaveLength(1);
    since = await lastActivity();
    const rs = await both(() => retireDevice(db(), acme, 23, now()));
    expect(statuses(rs), JSON.stringify(rs)).toEqual([200, 404]);
    expect(await entries("Device Retired", since)).toHaveLength(1);
  });

  it("registers a serial once when two registrations of it run at once", async () => {
    const since = await lastActivity();
    const rs = await both((i) =>
      registerDevices(db(), root, { companyId: "RSL1", devices: [{ serialFront: "RACE-F-1", serialBack: `RACE-B-${i}`, deviceType: "AB-100" }] }, now()),
    );
    expect(statuses(rs), JSON.stringify(rs)).toEqual([200, 422]);
    expect(rs.find((r) => r.status === 422)!.message).toBe("Device configuration already exists");
    expect(await db().select().from(schema.devices).where(eq(schema.devices.serialFront, "RACE-F-1"))).toHaveLength(1);
    expect(await entries("Devices Registered", since)).toHaveLength(1);
  });
});
