import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { consoleWorker, db, DEMO, ORIGIN, pageCookie, schema, type DemoLogin } from "./helpers";

/** Account Details (spec part 1: the top-bar menu opens /modifyUser for the signed-in user). */
async function page(cookie: string, path: string) {
  const res = await consoleWorker.fetch(ORIGIN + path, { headers: { Cookie: cookie }, redirect: "manual" });
  return { status: res.status, html: await res.text() };
}

async function userId(who: DemoLogin): Promise<number> {
  const row = await db().query.users.findFirst({ where: eq(schema.users.email, DEMO[who].userName) });
  return row!.id;
}

describe("Account Details", () => {
  it("opens the own record of a platform admin and of a read-only user (neither has the users right)", async () => {
    for (const who of ["root", "auditor"] as const) {
      const cookie = await pageCookie(who);
      const id = await userId(who);
      const own = await page(cookie, `/modifyUser?id=${id}`);
      expect(own.status, who).toBe(200);
      expect(own.html).toContain(DEMO[who].userName);
    }
  });

  it("opens nobody else's record without the users right", async () => {
    const cookie = await pageCookie("auditor");
    const acmeAdmin = await userId("acme");
    expect((await page(cookie, `/modifyUser?id=${acmeAdmin}`)).status).toBe(403);
    expect((await page(await pageCookie("root"), `/modifyUser?id=${acmeAdmin}`)).status).toBe(403);
  });

  it("changes nothing through one's own record without the users right", async () => {
    const cookie = await pageCookie("auditor");
    const id = await userId("auditor");
    const res = await consoleWorker.fetch(`${ORIGIN}/modifyUser?id=${id}`, {
      method: "POST",
      headers: { Cookie: cookie, Origin: ORIGIN, Host: new URL(ORIGIN).host },
      body: new URLSearchParams({ intent: "save", firstName: "Changed", lastName: "Auditor", displayName: "Changed", email: DEMO.auditor.userName }),
      redirect: "manual",
    });
    expect(res.status).toBe(403);
    expect((await db().query.users.findFirst({ where: eq(schema.users.id, id) }))!.firstName).toBe("Aldo");
  });
});
