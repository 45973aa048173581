/**
 * The platform's audit trail (docs/decisions/0071-platform-audit-trail.md): what root does lands in the
 * root company's own log, with who and when, and the platform administrator reads it through the activity
 * log's call and page, read-only. Nobody else reads it: other companies read their own logs, and a company
 * module outside the root company is refused before the body.
 */
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { api, consoleWorker, db, login, ORIGIN, pageCookie, schema, workerNow } from "./helpers";

const A = "/api/admin";
const ROOT = 1;
type Row = { activity_name: string; summary: string; created_by_user: { dispay_name: string } | null; activity_timestamp: number };
const list = (token: string, body: Record<string, unknown> = {}) => api(token, "POST", `${A}/user/activityLogs`, body);
const names = async (token: string) => ((await list(token, { pageSize: 100 })).body.payload.rows as Row[]).map((r) => r.activity_name);
const page = (path: string, cookie: string, init: RequestInit = {}) =>
  consoleWorker.fetch(`${ORIGIN}${path}`, { ...init, headers: { Cookie: cookie, Host: new URL(ORIGIN).host, Origin: ORIGIN }, redirect: "manual" });
const day = (offset: number) => new Date(workerNow() + offset * 86_400_000).toISOString().slice(0, 10);

let root: string;
beforeAll(async () => {
  root = await login("root");
});

describe("what root does lands in the root company's log", () => {
  it("lists each platform action with who did it, and when", async () => {
    const before = workerNow();
    const company = {
      companyName: "Audit Co",
      companyType: "ec",
      parentCompanyId: "ROOT",
      discountPercentage: 0,
      nextBillingDate: "2027-05-01",
      POCFirstName: "Ada",
      POCLastName: "Audit",
      POCEmail: "ada@audit.example",
      POCCountryCode: "001",
      POCPhoneNumber: "555-123-4567",
      companyId: "AU01",
      isDeactive: "0",
      timeZone: "UTC",
    };
    const added = await api(root, "POST", `${A}/company/addCompany`, company);
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    expect((await api(root, "DELETE", `${A}/user/deleteCompany?id=${added.body.payload.id}`)).status).toBe(200);
    const serials = ["AUD-F-1", "AUD-F-2"];
    const registered = await api(root, "POST", `${A}/device/registerDevices`, {
      companyId: ROOT,
      devices: serials.map((s, i) => ({ serialFront: s, serialBack: `AUD-B-${i}`, deviceType: "AB-100" })),
    });
    expect(registered.status, JSON.stringify(registered.body)).toBe(200);
    const boards = await db()
      .select({ id: schema.devices.id })
      .from(schema.devices)
      .where(and(eq(schema.devices.companyId, ROOT), eq(schema.devices.status, "stock")));
    const moved = await api(root, "POST", `${A}/company/transferDevices`, {
      fromCompany: "ROOT",
      toCompany: "BETA",
      transferDevices: boards.map((b) => b.id),
      status: "unconfigured",
      shippingDate: day(2),
      subscriptionTerm: 1,
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    const role = await api(root, "POST", `${A}/user/createRole`, {
      role_title: "Type Keeper",
      role_description: "Device types",
      permission_all: false,
      permission_add: true,
      permission_modifly: true,
      permission_view: true,
      permission_delete: false,
      permission_module: { deviceType: true },
    });
    expect(role.status, JSON.stringify(role.body)).toBe(200);
    const mailer = await api(root, "POST", `${A}/company/modifyCompanyMailerConfig`, {
      host_name: "127.0.0.1",
      port_name: 2525,
      user_name: "console",
      user_password: "local-only",
    });
    expect(mailer.status, JSON.stringify(mailer.body)).toBe(200);
    expect((await api(root, "POST", `${A}/cell/addCell`, { name: "audit-1", mqtt_url: "mqtt://audit-1.example:1883", label: "Audit" })).status).toBe(200);

    const r = await list(root, { pageSize: 100 });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const rows = r.body.payload.rows as Row[];
    const expected = {
      "Created Company": "Audit Co (AU01)",
      "Removed Company": "Audit Co (AU01)",
      "Devices Registered": "2 into the stock of",
      "Devices Transferred": "2 to Beta",
      "Role Created": "Type Keeper",
      "Mailer Config Updated": "platform default: 127.0.0.1:2525",
      "Cell Created": "audit-1",
    };
    for (const [name, summary] of Object.entries(expected)) {
      const row = rows.find((x) => x.activity_name === name);
      expect(row, name).toBeDefined();
      expect(row!.summary, name).toContain(summary);
      expect(row!.created_by_user?.dispay_name, name).toBe("Admin, Root");
      expect(row!.activity_timestamp, name).toBeGreaterThanOrEqual(before - 1000);
    }
  });

  it("another company's log never holds them", async () => {
    for (const who of ["acme", "beta", "var"] as const) {
      const seen = await names(await login(who));
      for (const name of ["Created Company", "Removed Company", "Devices Registered", "Role Created", "Mailer Config Updated", "Cell Created"])
        expect(seen, `${who} ${name}`).not.toContain(name);
    }
  });
});

describe("who reads the audit trail", () => {
  it("root reads it, checked before the body (a bad filter is root's 400), and may not annotate it", async () => {
    const bad = await list(root, { pageSize: "many" });
    expect(bad.status).toBe(400);
    const [entry] = (await list(root)).body.payload.rows as { id: number }[];
    expect((await api(root, "GET", `${A}/user/getActivityLogNotes?id=${entry.id}`)).status).toBe(200);
    const note = await api(root, "POST", `${A}/user/createActivityLogNotes`, { id: entry.id, note_description: "edited" });
    expect(note.status).toBe(403);
  });

  it("a reseller holding the company module, not activity, is refused before its input is read", async () => {
    const [reseller] = await db().select({ id: schema.roles.id }).from(schema.roles).where(eq(schema.roles.companyId, 2));
    await db().insert(schema.roleModules).values({ roleId: reseller.id, companyId: 2, moduleKey: "company" });
    await db()
      .delete(schema.roleModules)
      .where(and(eq(schema.roleModules.roleId, reseller.id), eq(schema.roleModules.moduleKey, "activity")));
    const token = await login("var");
    for (const body of [{}, { pageSize: "many" }]) {
      const r = await list(token, body);
      expect(r.status).toBe(403);
      expect(r.body.message).toBe("You do not have permission to do this");
    }
    expect((await api(token, "POST", `${A}/user/activityReport`, {})).status).toBe(403);
    expect((await api(token, "GET", `${A}/user/getActivityOptions`)).status).toBe(403);
    expect((await page("/activity", await pageCookie("var"))).status).toBe(403);
  });

  it("root's /activity page is the audit trail, without a note form", async () => {
    const cookie = await pageCookie("root");
    const res = await page("/activity", cookie);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("Audit trail");
    expect(html).toContain("Created Company");
    const [entry] = (await list(root)).body.payload.rows as { id: number }[];
    const details = await page(`/activityDetails?id=${entry.id}`, cookie);
    expect(details.status).toBe(200);
    expect(await details.text()).not.toContain('name="note"');
    const post = await page(`/activityDetails?id=${entry.id}`, cookie, { method: "POST", body: new URLSearchParams({ id: String(entry.id), note: "edited" }) });
    expect(post.status).toBe(403);
  });
});
