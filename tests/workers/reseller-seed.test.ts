import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { ORIGIN, pageCookie } from "./helpers";

/**
 * The demo reseller (RSL1, var@reseller.example) holds the company module, as a reseller admin does:
 * it opens /adminSupport (its customers' tickets) and /company, which show its own subtree only.
 */
const page = async (cookie: string, path: string) => {
  const res = await SELF.fetch(`${ORIGIN}${path}`, { headers: { Cookie: cookie }, redirect: "manual" });
  return { status: res.status, html: await res.text() };
};

describe("the demo reseller", () => {
  it("opens /adminSupport and /company, scoped to its own customers", async () => {
    const cookie = await pageCookie("var");
    const support = await page(cookie, "/adminSupport");
    expect(support.status).toBe(200);
    const companies = await page(cookie, "/company");
    expect(companies.status).toBe(200);
    expect(companies.html).toContain("ACME");
    // BETA is the root's customer, not the reseller's.
    expect(companies.html).not.toContain(">BETA<");
  });
});
