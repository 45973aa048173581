import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { api, login } from "./helpers";

const SECRET = String((env as unknown as { GATEWAY_SECRET: string }).GATEWAY_SECRET);
const feed = async (cursor?: number) => {
  const r = await api(`Bearer ${SECRET}`, "GET", `/api/gateway/changes${cursor ? `?cursor=${cursor}` : ""}`);
  expect(r.status).toBe(200);
  return r.body as unknown as { cursor: number; changes: { type: string; op: string; id: string; data?: { active?: boolean } }[] };
};

/** A door must stop opening for a deactivated or removed user, also through an offline gateway. */
describe("user changes reach the gateway feed", () => {
  it("announces a deactivated user as inactive and a removed user as a tombstone", async () => {
    const acme = await login("acme");
    const details = (await api(acme, "GET", "/api/admin/user/getUserDetails?id=6")).body.payload;
    const form = {
      userId: 6,
      firstName: details.firstName,
      lastName: details.lastName,
      displayName: details.displayName,
      emailId: details.email,
      countryCode: details.countryCode,
      phoneNumer: details.cell,
    };
    const { cursor } = await feed();

    expect((await api(acme, "PUT", "/api/admin/user/modifyUserDetails", { ...form, isInactive: "1" })).status).toBe(200);
    const afterDeactivate = await feed(cursor);
    const user = afterDeactivate.changes.find((c) => c.type === "user" && c.id === "6");
    expect(user?.op).toBe("upsert");
    expect(user?.data?.active).toBe(false);

    expect((await api(acme, "DELETE", "/api/admin/user/deleteUser?id=6")).status).toBe(200);
    const afterDelete = await feed(afterDeactivate.cursor);
    expect(afterDelete.changes.some((c) => c.type === "user" && c.id === "6" && c.op === "delete")).toBe(true);
  });
});
