/**
 * Issue 10, the sign-in side: throttling keyed on the resolved account and a lock-out scheme an
 * attacker cannot turn against the owner, sign-in timing, sessions ended by a password change,
 * safe redirects, sign-out from the console only, the cross-site refusal, reset mails, and the
 * security headers of every kind of answer.
 */
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import worker from "../../server";
import { languageCookie } from "~/i18n/i18next.server";
import { THROTTLE } from "~/services/throttle.server";
import { withSecurityHeaders } from "~/utils/http.server";
import { consoleWorker, api, db, DEMO, login, ORIGIN, resetThrottles, schema } from "./helpers";

afterEach(resetThrottles);

const LOGIN = "/api/admin/user/login";
/** Browsers always send Host; Remix compares it with Origin. */
const HOST = new URL(ORIGIN).host;
const ACME_ADMIN = 3;
const ip = (n: string) => ({ "CF-Connecting-IP": n });

/** Signs in through the console's form; returns the `Cookie` header value of the session. */
async function pageLogin(who: keyof typeof DEMO, redirectTo?: string): Promise<{ cookie: string; location: string | null }> {
  const res = await consoleWorker.fetch(`${ORIGIN}/login${redirectTo === undefined ? "" : `?redirectTo=${encodeURIComponent(redirectTo)}`}`, {
    method: "POST",
    body: new URLSearchParams({ companyId: DEMO[who].companyId, userName: DEMO[who].userName, password: DEMO[who].password }),
    headers: { Host: HOST, Origin: ORIGIN, "Content-Type": "application/x-www-form-urlencoded" },
    redirect: "manual",
  });
  expect(res.status, await res.clone().text()).toBe(302);
  const session = res.headers.getSetCookie().find((c) => c.startsWith("__session="))!;
  return { cookie: session.split(";")[0], location: res.headers.get("Location") };
}

const page = (cookie: string, path: string, init: RequestInit = {}) =>
  consoleWorker.fetch(ORIGIN + path, { redirect: "manual", ...init, headers: { Host: HOST, Cookie: cookie, ...(init.headers as Record<string, string>) } });

describe("sign-in throttle on the resolved account", () => {
  it("counts every spelling of one phone number against the same account", async () => {
    // Five wrong passwords, each with the admin's phone number typed differently (one client).
    const spellings = ["555-100-0003", "5551000003#", "(555) 100 0003", " 555.100.0003 ", "555 1000003"];
    for (const userName of spellings) {
      const r = await api(null, "POST", LOGIN, { companyId: "ACME", userName, password: "Wrong#Guess1" });
      expect(r.status, userName).toBe(401);
    }
    const next = await api(null, "POST", LOGIN, { companyId: "ACME", userName: "5551000003", password: DEMO.acme.password });
    expect(next.status).toBe(429);
    expect(next.body.errorCode).toBe("throttled");
    // The e-mail spelling is the same account too.
    expect((await api(null, "POST", LOGIN, DEMO.acme)).status).toBe(429);
  });

  it("does not let an attacker lock the owner out (decision 0019)", async () => {
    // The owner has signed in from their own address before.
    expect((await api(null, "POST", LOGIN, DEMO.acme, ip("192.0.2.10"))).status).toBe(200);
    // An attacker guesses from many addresses until the account is slowed down.
    for (let i = 0; i < THROTTLE.accountSlowAfter; i++) {
      expect((await api(null, "POST", LOGIN, { ...DEMO.acme, password: `Guess#${i}aA` }, ip(`203.0.113.${1 + i}`))).status).toBe(401);
    }
    // A new address must wait (a delay, not a lock), with a message that says why and what to do ...
    const slowed = await api(null, "POST", LOGIN, DEMO.acme, ip("198.51.100.20"));
    expect(slowed.status).toBe(429);
    expect(slowed.body.errorCode).toBe("account-slowed");
    expect(slowed.body.payload.seconds).toBeLessThanOrEqual(THROTTLE.accountMaxDelayMs / 1000);
    expect(slowed.body.message).toMatch(/many failed sign-in attempts.*wait \d+ seconds? between tries.*reset your password/);
    // ... the attacker's next guess too ...
    expect((await api(null, "POST", LOGIN, { ...DEMO.acme, password: "Guess#xaA" }, ip("203.0.113.1"))).status).toBe(429);
    // ... and the owner, from the address they signed in from before, gets in.
    expect((await api(null, "POST", LOGIN, DEMO.acme, ip("192.0.2.10"))).status).toBe(200);
    // The owner was told by mail once.
    const mail = await db().select().from(schema.mailOutbox).where(eq(schema.mailOutbox.subject, "Failed sign-in attempts on your account"));
    expect(mail.map((m) => m.toAddress)).toEqual([DEMO.acme.userName]);
  });

  it("shows the delay in Spanish on the sign-in page", async () => {
    for (let i = 0; i < THROTTLE.accountSlowAfter; i++) {
      await api(null, "POST", LOGIN, { ...DEMO.beta, password: `Guess#${i}aA` }, ip(`203.0.113.${50 + i}`));
    }
    const res = await consoleWorker.fetch(`${ORIGIN}/login`, {
      method: "POST",
      body: new URLSearchParams({ ...DEMO.beta, language: "es" }),
      headers: {
        Host: HOST,
        Origin: ORIGIN,
        "Content-Type": "application/x-www-form-urlencoded",
        Cookie: (await languageCookie.serialize("es")).split(";")[0],
        ...ip("198.51.100.77"),
      },
    });
    expect(res.status).toBe(429);
    expect(await res.text()).toMatch(/Esta cuenta ha tenido muchos intentos fallidos de inicio de sesi\u00f3n/);
  });

  it("takes as long for an unknown account as for a wrong password", async () => {
    const time = async (body: unknown, n: string) => {
      const t0 = performance.now();
      const r = await api(null, "POST", LOGIN, body, ip(n));
      expect(r.status).toBe(401);
      return performance.now() - t0;
    };
    const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 7; i++) {
      known.push(await time({ ...DEMO.acme, password: `Wrong#${i}aa` }, `192.0.2.${100 + i}`));
      unknown.push(await time({ companyId: "ACME", userName: `nobody${i}@acme.example`, password: `Wrong#${i}aa` }, `192.0.2.${150 + i}`));
    }
    console.log(`sign-in timing (ms): wrong password ${known.map((x) => x.toFixed(0))}, unknown account ${unknown.map((x) => x.toFixed(0))}`);
    expect(median(unknown)).toBeGreaterThan(median(known) * 0.5);
  });
});

describe("a password change or reset ends the account's other sessions", () => {
  it("keeps the session that changed it and ends every other one", async () => {
    const [mine, other] = [await login("beta"), await login("beta")];
    const { cookie } = await pageLogin("beta");
    const r = await api(mine, "PUT", "/api/admin/user/resetPassword", {
      currentPassword: DEMO.beta.password,
      newPassword: "Beta#Changed2026",
      confirmPassword: "Beta#Changed2026",
    });
    expect(r.status).toBe(200);
    expect((await api(other, "GET", "/api/admin/user/getAllTimeZone")).status).toBe(401);
    expect((await page(cookie, "/users")).status).toBe(302);
    expect((await api(mine, "GET", "/api/admin/user/getAllTimeZone")).status).toBe(200);
    // Back to the demo password for the tests after this one.
    await api(mine, "PUT", "/api/admin/user/resetPassword", { currentPassword: "Beta#Changed2026", newPassword: DEMO.beta.password, confirmPassword: DEMO.beta.password });
  });

  it("a reset through a link ends every session and the other links", async () => {
    const token = await login("beta");
    for (let i = 0; i < 2; i++) await api(null, "POST", "/api/admin/user/webForgotPassword", { companyId: "BETA", userName: DEMO.beta.userName });
    const links = (await db().select().from(schema.mailOutbox).where(eq(schema.mailOutbox.subject, "Reset your password")))
      .map((m) => /\/resetPassword\/([A-Za-z0-9_-]+)/.exec(m.body)?.[1])
      .filter(Boolean) as string[];
    expect(links.length).toBeGreaterThanOrEqual(2);
    const [first, second] = links.slice(-2);
    const reset = await api(null, "POST", "/api/admin/user/webReSetPassword", { uid: second, password: DEMO.beta.password, confirmPassword: DEMO.beta.password });
    expect(reset.status).toBe(200);
    expect((await api(token, "GET", "/api/admin/user/getAllTimeZone")).status).toBe(401);
    const again = await api(null, "POST", "/api/admin/user/webReSetPassword", { uid: first, password: "Beta#Other2026", confirmPassword: "Beta#Other2026" });
    expect(again.status).toBe(400);
  });
});

describe("reset mails", () => {
  // BETA resets by e-mail (ACME's demo mode is admin approval).
  it("are throttled per account (same answer, no more mail) and per client (429)", async () => {
    await db().delete(schema.mailOutbox);
    for (let i = 0; i < 6; i++) {
      const r = await api(null, "POST", "/api/admin/user/webForgotPassword", { companyId: "BETA", userName: DEMO.beta.userName }, ip(`192.0.2.${30 + i}`));
      expect(r.status).toBe(200);
      expect(r.body.message).toBe("A reset link has been sent to your email");
    }
    expect((await db().select().from(schema.mailOutbox)).length).toBe(3);
    const client = ip("192.0.2.99");
    const answers: number[] = [];
    for (let i = 0; i < 12; i++) answers.push((await api(null, "POST", "/api/admin/user/webForgotPassword", { companyId: "ACME", userName: `x${i}@acme.example` }, client)).status);
    // Unknown accounts are refused openly (spec: 'Invalid Company ID or Email'), and count toward the client's limit.
    expect(answers.slice(0, 10).every((s) => s === 400)).toBe(true);
    expect(answers.slice(10)).toEqual([429, 429]);
  });

  it("carry links built from PUBLIC_ORIGIN, not from the Host header", async () => {
    await db().delete(schema.mailOutbox);
    const res = await consoleWorker.fetch("https://evil.example/api/admin/user/webForgotPassword", {
      method: "POST",
      body: JSON.stringify({ companyId: "BETA", userName: DEMO.beta.userName }),
      headers: { "Content-Type": "application/json", ...ip("192.0.2.77") },
    });
    expect(res.status).toBe(200);
    const [mail] = await db().select().from(schema.mailOutbox);
    expect(mail.body).toContain(`${env.PUBLIC_ORIGIN}/resetPassword/`);
    expect(mail.body).not.toContain("evil.example");
  });
});

describe("redirects stay on the console", () => {
  it.each(["/\\evil.example", "//evil.example", "/%5Cevil.example", "/%2F%2Fevil.example", "https://evil.example/"])("after sign-in with redirectTo=%j", async (to) => {
    const { location } = await pageLogin("acme", to);
    expect(location).toBe("/");
  });

  it("keeps a same-site redirectTo", async () => {
    expect((await pageLogin("acme", "/users?page=2")).location).toBe("/users?page=2");
  });

  it("through the language switch", async () => {
    for (const to of ["/\\evil.example", "//evil.example", "/%5C%5Cevil.example"]) {
      const res = await consoleWorker.fetch(`${ORIGIN}/resources/language`, {
        method: "POST",
        body: new URLSearchParams({ lng: "es", redirectTo: to }),
        headers: { Host: HOST, Origin: ORIGIN, "Content-Type": "application/x-www-form-urlencoded" },
        redirect: "manual",
      });
      expect(res.status).toBe(302);
      expect(res.headers.get("Location"), to).toBe("/");
    }
  });
});

describe("sign-out and cross-site requests", () => {
  it("a cross-site POST to /logout ends nothing and clears no cookie", async () => {
    const { cookie } = await pageLogin("acme");
    const attempts: Record<string, string>[] = [{ Origin: "https://evil.example" }, { Origin: "null" }, { "Sec-Fetch-Site": "cross-site" }, {}];
    for (const headers of attempts) {
      const res = await page(cookie, "/logout", { method: "POST", body: new URLSearchParams(), headers });
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(res.headers.getSetCookie().some((c) => c.startsWith("__session="))).toBe(false);
    }
    expect((await page(cookie, "/logout")).status).toBe(302); // GET does nothing but redirect home
    expect((await page(cookie, "/users")).status).toBe(200);
    const own = await page(cookie, "/logout", { method: "POST", body: new URLSearchParams(), headers: { Origin: ORIGIN } });
    expect(own.status).toBe(302);
    expect(own.headers.get("Location")).toBe("/login");
    expect((await page(cookie, "/users")).status).toBe(302);
  });

  it("Remix's cross-site refusal answers 403, not 500", async () => {
    const { cookie } = await pageLogin("acme");
    for (const path of ["/users", "/modifyUser?id=6", "/users.data", "/resources/language"]) {
      const res = await page(cookie, path, { method: "POST", body: new URLSearchParams({ intent: "save" }), headers: { Origin: "https://evil.example" } });
      expect(res.status, path).toBe(403);
    }
    const malformed = await page(cookie, "/users", { method: "POST", body: new URLSearchParams(), headers: { Origin: "not a url" } });
    expect(malformed.status).toBe(403);
  });
});

describe("user/login reads its inputs leniently and refuses bad ones with a 4xx", () => {
  it("accepts the spec's language names En and Es in any case", async () => {
    for (const language of ["En", "Es", "en", "es", "EN", "es-ES", ""]) {
      const r = await api(null, "POST", LOGIN, { ...DEMO.acme, language });
      expect(r.status, language).toBe(200);
    }
    const fr = await api(null, "POST", LOGIN, { ...DEMO.acme, language: "fr" });
    expect(fr.status).toBe(400);
    expect(fr.body.message).toContain("language must be En or Es");
  });

  it("answers every malformed body with a 4xx and a message, never a 5xx", async () => {
    const bodies: unknown[] = [
      [],
      null,
      "null",
      "[]",
      "42",
      '"text"',
      { companyId: 1234, userName: 5551000003, password: "x" },
      { companyId: null, userName: null, password: null },
      { companyId: {}, userName: [], password: {} },
      { companyId: "ACME", userName: "a".repeat(100_000), password: "x" },
      { companyId: "ACME", userName: DEMO.acme.userName, password: "p".repeat(100_000) },
      { ...DEMO.acme, language: 7 },
      '{"companyId":"ACME"',
    ];
    for (const body of bodies) {
      const r = await api(null, "POST", LOGIN, typeof body === "string" ? body : JSON.stringify(body));
      expect(r.status, JSON.stringify(body)?.slice(0, 80)).toBeGreaterThanOrEqual(400);
      expect(r.status, JSON.stringify(body)?.slice(0, 80)).toBeLessThan(500);
      expect(typeof r.body.message).toBe("string");
    }
  });
});

describe("response headers", () => {
  const show = (label: string, res: Response) => {
    const lines = [...res.headers].map(([k, v]) => `  ${k}: ${v}`).join("\n");
    console.log(`${label} -> ${res.status}\n${lines}`);
  };
  const common = (res: Response) => {
    expect(res.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(res.headers.get("Cache-Control")).toBe("no-store");
    expect(res.headers.get("Content-Security-Policy")).toBeTruthy();
  };

  it("pages carry a nonce CSP that matches their scripts; data, CSV, zip and API answers are not stored", async () => {
    const { cookie } = await pageLogin("acme");
    const root = await login("root");

    const html = await page(cookie, "/users");
    show("GET /users (signed-in page)", html);
    common(html);
    const csp = html.headers.get("Content-Security-Policy")!;
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).toBeTruthy();
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    const body = await html.text();
    const scripts = [...body.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const s of scripts) expect(s, s).toContain(`nonce="${nonce}"`);
    // A new nonce per request.
    const again = await page(cookie, "/users");
    expect(/'nonce-([^']+)'/.exec(again.headers.get("Content-Security-Policy")!)?.[1]).not.toBe(nonce);
    await again.body?.cancel();

    const data = await page(cookie, "/users.data");
    show("GET /users.data", data);
    common(data);
    await data.body?.cancel();

    const csv = await page(cookie, "/resources/activity-report");
    show("GET /resources/activity-report (CSV)", csv);
    expect(csv.headers.get("Content-Type")).toContain("text/csv");
    common(csv);
    // Read to the end: a download cancelled mid-read leaves the store's read in flight when the file ends.
    expect(await csv.text()).toContain("Date,Activity");

    const form = new FormData();
    form.append("version", "9.1");
    form.append("zip_file", new File([new TextEncoder().encode("PK\u0003\u0004headers")], "fw.zip", { type: "application/zip" }));
    const release = await api(root, "POST", "/api/admin/ota/addota", form);
    expect(release.status).toBe(200);
    const rootPage = await pageLogin("root");
    const zip = await page(rootPage.cookie, `/resources/ota/${release.body.payload.id}/download`);
    show(`GET /resources/ota/${release.body.payload.id}/download (zip)`, zip);
    expect(zip.status).toBe(200);
    common(zip);
    await zip.body?.cancel();

    const apiRes = await consoleWorker.fetch(`${ORIGIN}/api/admin/user/getAllTimeZone`, { headers: { Authorization: root } });
    show("GET /api/admin/user/getAllTimeZone", apiRes);
    common(apiRes);
    await apiRes.body?.cancel();

    const loginPage = await consoleWorker.fetch(`${ORIGIN}/login`);
    common(loginPage);
    await loginPage.body?.cancel();
  });

  it("adds HSTS only in production", async () => {
    // The Worker's own entry point, with the production configuration.
    const call = async (vars: Record<string, string>) => {
      const ctx = createExecutionContext();
      const res = await worker.fetch!(new Request(`${ORIGIN}/login`) as never, { ...env, ...vars } as never, ctx);
      await waitOnExecutionContext(ctx);
      await res.body?.cancel();
      return res;
    };
    const production = await call({ ENVIRONMENT: "production" });
    show("GET /login with ENVIRONMENT=production", production);
    expect(production.headers.get("Strict-Transport-Security")).toMatch(/^max-age=\d{8,}; includeSubDomains$/);
    expect((await call({})).headers.get("Strict-Transport-Security")).toBeNull();
    expect(withSecurityHeaders(new Response("x"), { ...env, ENVIRONMENT: "production" } as unknown as Env).headers.get("Strict-Transport-Security")).toBeTruthy();
  });
});

describe("body-size limit before parsing", () => {
  it("refuses a body over 1 MiB with 413, declared or streamed, before anyone reads it", async () => {
    const big = JSON.stringify({ ...DEMO.acme, padding: "x".repeat(2 * 1024 * 1024) });
    const declared = await api(null, "POST", LOGIN, big);
    expect(declared.status).toBe(413);
    const bytes = new TextEncoder().encode(big);
    const stream = new ReadableStream({
      start(c) {
        for (let i = 0; i < bytes.length; i += 64 * 1024) c.enqueue(bytes.slice(i, i + 64 * 1024));
        c.close();
      },
    });
    const streamed = await consoleWorker.fetch(ORIGIN + LOGIN, { method: "POST", body: stream, headers: { "Content-Type": "application/json" }, duplex: "half" } as RequestInit);
    expect(streamed.status).toBe(413);
    const form = await consoleWorker.fetch(`${ORIGIN}/login`, {
      method: "POST",
      body: new URLSearchParams({ companyId: "x".repeat(2 * 1024 * 1024) }),
      headers: { Host: HOST, Origin: ORIGIN },
    });
    expect(form.status).toBe(413);
    // A normal sign-in still passes.
    expect((await api(null, "POST", LOGIN, DEMO.acme)).status).toBe(200);
    expect(ACME_ADMIN).toBe(3);
  });
});
