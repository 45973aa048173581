import { describe, expect, it } from "vitest";
import { api, login } from "./helpers";

type Operation = { security?: unknown[]; "x-permission"?: unknown };
type Document = { paths: Record<string, Record<string, Operation>> };

/**
 * The calls the auditor (ACME, read-only: devices, activity, change_password) may make among the
 * mutating ones (calls open to any signed-in user or within his view rights).
 */
const AUDITOR_MAY = new Set([
  "POST /api/admin/user/activityLogs",
  "POST /api/admin/user/activityReport",
  "POST /api/admin/device/checkAccess",
  "PUT /api/admin/user/resetPassword",
  "PUT /api/admin/user/setTwoFactorChannel",
  // Anyone signed in sets up their own authenticator app.
  "POST /api/admin/user/authenticator/start",
  "POST /api/admin/user/authenticator/confirm",
  "POST /api/admin/user/authenticator/remove",
  // And their own console passkeys (decision 0123).
  "POST /api/admin/user/passkeys/registrationOptions",
  "POST /api/admin/user/passkeys/register",
  "POST /api/admin/user/passkeys/rename",
  "POST /api/admin/user/passkeys/remove",
  "POST /api/user/createActivityLog",
  "POST /api/user/support/createTicket",
]);

const MUTATING = ["post", "put", "delete"];

describe("the permission before the body", async () => {
  const doc = (await api<Document>(null, "GET", "/api/openapi.json")).body as unknown as Document;
  const tokenCalls = Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops)
      .filter(([, op]) => op.security?.length)
      .map(([method, op]) => ({ method, path, op })),
  );

  it("every token call declares its permission in the OpenAPI document", () => {
    expect(tokenCalls.length).toBeGreaterThan(100);
    expect(tokenCalls.filter((c) => !c.op["x-permission"]).map((c) => `${c.method} ${c.path}`)).toEqual([]);
  });

  it("the auditor gets 403, never 400, on every mutating call he may not make", async () => {
    const auditor = await login("auditor");
    const swept = tokenCalls.filter((c) => MUTATING.includes(c.method) && !c.path.startsWith("/api/mobile/") && c.path !== "/api/admin/user/logout");
    expect(swept.length).toBeGreaterThan(60);
    const wrong: string[] = [];
    for (const { method, path } of swept) {
      const name = `${method.toUpperCase()} ${path}`;
      const r = await api(auditor, method.toUpperCase(), path, method === "delete" ? undefined : {});
      const refused = r.status === 403 && r.body.message === "You do not have permission to do this";
      if (AUDITOR_MAY.has(name) ? r.status === 403 || r.status >= 500 : !refused) wrong.push(`${name}: ${r.status} ${JSON.stringify(r.body).slice(0, 80)}`);
    }
    expect(wrong).toEqual([]);
    // Every allowance above names a call that exists.
    expect([...AUDITOR_MAY].filter((n) => !swept.some((c) => `${c.method.toUpperCase()} ${c.path}` === n))).toEqual([]);
  });

  it("a GET's query is not read before the right either", async () => {
    const auditor = await login("auditor");
    const r = await api(auditor, "GET", "/api/admin/user/getUserDetails?id=not-a-number");
    expect(r.status).toBe(403);
  });
});
