import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { api, consoleWorker, db, login, ORIGIN, pageCookie, schema } from "./helpers";

/**
 * Spec part 1's texts for failed device writes and an ended session. A device write is guarded by the
 * device's state at the moment of writing; a trigger that skips the device's updates stands in for a change
 * that lands between the service's checks and its write.
 */
const A = "/api/admin";
const UNCONFIGURED = 17; // a stock board of the seed's, given to ACME unconfigured below
beforeAll(() => env.DB.prepare(`UPDATE devices SET company_id = 3, status = 'unconfigured' WHERE id = ${UNCONFIGURED}`).run());

const skipUpdatesOf = (id: number) => env.DB.prepare(`CREATE TRIGGER test_skip_device_update BEFORE UPDATE ON devices WHEN old.id = ${id} BEGIN SELECT RAISE(IGNORE); END`).run();
afterEach(() => env.DB.prepare("DROP TRIGGER IF EXISTS test_skip_device_update").run());

const device = async (id: number) => (await db().query.devices.findFirst({ where: eq(schema.devices.id, id) }))!;

describe("failed device writes", () => {
  it("'Device configuration was not added successfully' when the configuring write moves nothing", async () => {
    const acme = await login("acme");
    await skipUpdatesOf(UNCONFIGURED);
    const r = await api(acme, "POST", `${A}/device/configureDevice`, { id: UNCONFIGURED, fullName: "Spec Text Door", displayName: "LD" });
    expect(r.status, JSON.stringify(r.body)).toBe(409);
    expect(r.body.message).toBe("Device configuration was not added successfully");
    expect(await device(UNCONFIGURED)).toMatchObject({ status: "unconfigured", boardSecretHash: null });
  });

  it("'Error while updating' when a settings change or a secret rotation moves nothing", async () => {
    const acme = await login("acme");
    const ok = await api(acme, "POST", `${A}/device/configureDevice`, { id: UNCONFIGURED, fullName: "Spec Text Door", displayName: "LD" });
    expect(ok.status).toBe(200);
    const hash = (await device(UNCONFIGURED)).boardSecretHash;
    await skipUpdatesOf(UNCONFIGURED);
    const settings = await api(acme, "POST", `${A}/device/updateDeviceSettings`, { id: UNCONFIGURED, fullName: "Spec Text Door 2", displayName: "LD2" });
    expect([settings.status, settings.body.message]).toEqual([409, "Error while updating"]);
    const rotation = await api(acme, "POST", `${A}/device/rotateDeviceSecret`, { id: UNCONFIGURED });
    expect([rotation.status, rotation.body.message]).toEqual([409, "Error while updating"]);
    expect(await device(UNCONFIGURED)).toMatchObject({ fullName: "Spec Text Door", boardSecretHash: hash });
  });
});

describe("an ended session (the API's 'Access Denied. Error Code 90')", () => {
  it("sends the page to sign-in, which says 'You have been logged out' in either language", async () => {
    const cookie = await pageCookie("acme");
    const out = await consoleWorker.fetch(`${ORIGIN}/logout`, { method: "POST", headers: { Cookie: cookie, Origin: ORIGIN, Host: new URL(ORIGIN).host }, redirect: "manual" });
    expect(out.status).toBe(302);
    // The browser still holds the ended session's cookie.
    const res = await consoleWorker.fetch(`${ORIGIN}/users`, { headers: { Cookie: cookie }, redirect: "manual" });
    expect(res.status).toBe(302);
    const to = res.headers.get("Location")!;
    expect(to).toBe("/login?reason=expired&redirectTo=%2Fusers");
    const en = await (await consoleWorker.fetch(ORIGIN + to)).text();
    expect(en).toContain("You have been logged out");
    const es = await (await consoleWorker.fetch(`${ORIGIN}${to}&lng=es`)).text();
    expect(es).toContain("Se ha cerrado su sesión");
  });
});
