import { test as base, expect, type APIRequestContext, type BrowserContext, type Locator, type Page, type TestInfo } from "@playwright/test";
import { E2E_MAILBOX, E2E_TEXTS, smsFromOf } from "../../playwright.config";
import { demoDates } from "../../db/seed/clock";
import { DEMO, type DemoLogin } from "../demo-logins";

export { DEMO, type DemoLogin };

type ProjectMetadata = { clockOffsetMs: number; seedNow: number; consoleOrigins: string[] };
const metadata = (info: TestInfo = base.info()) => info.project.metadata as ProjectMetadata;

/**
 * The console of the worker running the current test: each real-time worker has its own, each
 * clock instant one (playwright.config.ts); a project never runs two workers on one console.
 */
function consoleOf(info: TestInfo): { port: number; origin: string } {
  const origins = metadata(info).consoleOrigins;
  const origin = origins[info.parallelIndex % origins.length];
  return { origin, port: Number(new URL(origin).port) };
}
export const workerConsole = () => consoleOf(base.info());

/**
 * Milliseconds the current test's clock is shifted by: 0 at the real time, else the distance to
 * its project's instant (playwright.config.ts). The Worker under test reads the same shifted clock.
 */
export const clockOffsetMs = (): number => metadata().clockOffsetMs;

/**
 * The tags of a test whose outcome depends on the instant: playwright.config.ts runs it at each fixed
 * instant, never at the real time. A Spanish variant repeats its English twin's clock-dependent logic
 * in other words, so it runs at the first instant only (`@clock-once`).
 */
export const clockTag = (lang: "en" | "es" = "en"): string[] => (lang === "en" ? ["@clock"] : ["@clock", "@clock-once"]);

/**
 * The instant the console's demo data was seeded relative to (playwright.config.ts, db/seed/clock.ts):
 * a test that expects a seeded date derives it from this, never from a calendar date.
 */
export const seedNow = (): number => metadata().seedNow;

/** The run's "now": the real time, shifted when the test runs at a fixed instant. */
export const runNow = (): number => Date.now() + clockOffsetMs();

/**
 * Puts the browser on the run's clock: at a fixed instant, every page of `context` starts at the
 * shifted time (and time keeps passing); at the real time the browser keeps the real clock.
 */
export async function useRunClock(context: BrowserContext): Promise<void> {
  if (clockOffsetMs() === 0) return;
  await context.clock.install({ time: runNow() });
}

/**
 * Signs in by posting the login form from the page's own request context (no clicking), so the
 * session cookie lands in the browser. `lang` sets the stored language first.
 */
export async function signIn(page: Page, who: DemoLogin, lang: "en" | "es" = "en"): Promise<void> {
  // The language is stored the way the console stores it: through its own endpoint. A sign-in is sent
  // again once on a connection reset (Playwright retries only ECONNRESET), as adminApi's arranging calls
  // are: the local workerd resets a fresh connection about once in 300 tests, `Connection: close` or not
  // (decision 0069); signing in is arranging, not what a test checks.
  const options = { maxRedirects: 0, maxRetries: 1 };
  await page.request.post("/resources/language", { form: { lng: lang, redirectTo: "/" }, ...options });
  const res = await page.request.post("/login", { form: { ...DEMO[who], intent: "login" }, ...options });
  expect(res.status(), `sign-in as ${who}`).toBe(302);
}

export type ReceivedMail = { from: string; to: string[]; subject: string; text: string };

/**
 * Every mail the run's SMTP server (scripts/smtp-sink.mjs) has received, oldest first: every
 * worker's console delivers there, so tests pick their mail by a recipient or subject of their own.
 */
export async function mailbox(): Promise<ReceivedMail[]> {
  const res = await fetch(E2E_MAILBOX);
  expect(res.ok, "the run's mailbox answers").toBe(true);
  return (await res.json()) as ReceivedMail[];
}

export type ReceivedText = { to: string; from: string; body: string };

/**
 * The texts the current test's console sent through the run's sink (scripts/sms-sink.mjs), oldest
 * first: each console has a sender number of its own (`smsFromOf`), since every console texts the
 * same demo people and two workers' codes for one person must not mix.
 */
export async function textMessages(): Promise<ReceivedText[]> {
  const res = await fetch(E2E_TEXTS);
  expect(res.ok, "the run's text-message sink answers").toBe(true);
  const from = smsFromOf(workerConsole().port);
  return ((await res.json()) as ReceivedText[]).filter((m) => m.from === from);
}

/**
 * Keeps a picture of the page (or of one element) for a person reviewing the screens, as
 * test-results/screens/<name>.png, when `E2E_SCREENSHOTS=1`. No test reads it, and the gate skips it:
 * a full-page picture costs about half a second of CPU on this machine.
 */
export async function keepScreenshot(target: Page | Locator, name: string, { fullPage = false } = {}): Promise<void> {
  if (process.env.E2E_SCREENSHOTS !== "1") return;
  const path = `test-results/screens/${name}.png`;
  await ("goto" in target ? target.screenshot({ path, fullPage }) : target.screenshot({ path }));
}

/** A short random tag that makes names created by one test unique across runs and retries. */
/**
 * Options for a GET through Playwright's API client. Its connections are kept alive, and the local
 * workerd closes one idle for 5 s: a request written just as that close arrives fails with ECONNRESET
 * before the server read it. Chromium resends a request lost that way; Playwright's client does only
 * when asked (`maxRetries` retries ECONNRESET alone). For GETs only, which are safe to send twice.
 */
export const RESET_SAFE_GET = { maxRetries: 1 } as const;

export const unique = (): string => Math.random().toString(36).slice(2, 8);

/**
 * The admin API as a demo admin, for arranging the data a test needs (users, groups, settings)
 * instead of relying on seed rows other specs may have changed.
 */
export async function adminApi(request: APIRequestContext, who: DemoLogin = "acme") {
  const login = await request.post("/api/admin/user/login", { data: DEMO[who], maxRetries: 1 });
  expect(login.status(), `API sign-in as ${who}`).toBe(200);
  const { token } = (await login.json()) as { token: string };
  const headers = { Authorization: token };
  const call = async <T = any>(method: "GET" | "POST" | "PUT" | "DELETE", path: string, data?: unknown): Promise<T> => {
    // An idempotent arranging call is sent again once on a connection reset (Playwright retries only
    // ECONNRESET): the local workerd reset a fresh connection twice in about 350 tests
    // for no cause found (decision 0069), and these calls arrange data, they are not what a test checks.
    // A reset the product causes has its own test without retries (security.spec.ts).
    const res = await request.fetch(`/api/admin${path}`, { method, headers, data, maxRetries: method === "POST" ? 0 : 1 });
    expect(res.status(), `${method} ${path}: ${await res.text()}`).toBe(200);
    return (await res.json()) as T;
  };
  return {
    token,
    call,
    /** A new active user, not invited; returns its id and display name ("Last, First"). */
    async createUser(first = "Erin", last = `Test${unique()}`): Promise<{ id: number; displayName: string }> {
      const displayName = `${last}, ${first}`;
      const phone = `55${String(Date.now()).slice(-6)}${Math.floor(Math.random() * 100)
        .toString()
        .padStart(2, "0")}`;
      const r = await call<{ payload: { id: number } }>("POST", "/user/addUser", {
        firstName: first,
        lastName: last,
        displayName,
        emailId: `${last.toLowerCase()}.${unique()}@acme.example`,
        countryCode: "1",
        phoneNumer: phone,
        // Invites are the business of the tests that check them (decision 0055).
        sendInvite: "0",
      });
      return { id: r.payload.id, displayName };
    },
    /** A new console admin (web management on) invited by mail; returns its invitation link to set a password. */
    async inviteAdmin(email: string, first: string, last: string): Promise<string> {
      await call("POST", "/user/addUser", {
        firstName: first,
        lastName: last,
        displayName: `${last}, ${first}`,
        emailId: email,
        countryCode: "1",
        phoneNumer: `55${String(Date.now()).slice(-8)}`,
        isSentinel: "1",
      });
      const invite = async () => (await mailbox()).find((m) => m.to.includes(email));
      await expect.poll(invite, { timeout: 30_000 }).toBeTruthy();
      return (await invite())!.text.match(/https?:\/\/\S+\/resetPassword\/[A-Za-z0-9_-]+/)![0];
    },
    /** Id of an IANA zone in the console's zone table. */
    async zoneId(name: string): Promise<number> {
      const r = await call<{ payload: { id: number; name: string }[] }>("GET", "/user/getAllTimeZone");
      const zone = r.payload.find((z) => z.name === name);
      if (!zone) throw new Error(`no zone ${name}`);
      return zone.id;
    },
    /**
     * Puts the company's settings, scheduled-open hours and fob programmers back to the demo data's
     * (db/seed/demo.ts: Europe/Madrid, scheduled open with FPI, admin reset with phone 5550000003,
     * Monday to Friday 08:00-18:00, closed on the next Christmas, 08:00-13:00 on the next New Year's Eve, Reception
     * Programmer assigned, the activity log's default policy), whatever another test or an earlier
     * run changed. ACME only.
     */
    async resetAcmeSettings(): Promise<void> {
      const { payload: current } = await call<{ payload: Record<string, unknown> }>("GET", "/settings/getCompanySettings");
      const keep = ["is_multi_phone_login", "offline_reconect", "ekey_duration", "password_expiry_duration", "allowed_firmware", "require_2fa", "default_country_code"];
      await call("PUT", "/settings/modifyCompanySettings", {
        ...Object.fromEntries(keep.map((k) => [k, current[k]])),
        default_country_code: "001",
        ekey_duration: 24,
        biometric_security: "0",
        schedule_open: "1",
        fpi: "1",
        default_time_zone_id: await this.zoneId("Europe/Madrid"),
        password_reset_security: "admin",
        password_reset_phone: "5550000003",
        activity_hot_days: 90,
        activity_retention_days: null,
        activity_retention_action: "delete",
        firmware_window_start: null,
        firmware_window_end: null,
        rollout_deferred_until: null,
      });
      const weekday = (d: number) => (d < 5 ? { openWholeDay: true, openTime: "08:00", closeTime: "18:00" } : { openWholeDay: false, openTime: "", closeTime: "" });
      await call("PUT", "/settings/modifyScheduleOpen", {
        fpi: "1",
        schedule_opens: [0, 1, 2, 3, 4, 5, 6].map((d) => ({ scheduleDay: d, ...weekday(d) })),
        schedule_exceptions: [
          { exceptionDate: demoDates(seedNow()).christmas, openWholeDay: false, openTime: "", closeTime: "" },
          { exceptionDate: demoDates(seedNow()).newYearsEve, openWholeDay: true, openTime: "08:00", closeTime: "13:00" },
        ],
      });
      const fobs = await call<{ payload: { available_programmers: { id: number; display_name: string }[]; assigned_programmers: { id: number; display_name: string }[] } }>(
        "GET",
        "/settings/getFobProgrammers",
      );
      const reception = [...fobs.payload.available_programmers, ...fobs.payload.assigned_programmers].find((p) => p.display_name === "Reception Programmer");
      await call("PUT", "/settings/modifyFobProgrammers", { fob_programmers: reception ? [reception.id] : [] });
    },
    /**
     * A new device group of the company's first `deviceCount` devices, Monday to Friday 08:00-18:00
     * in Europe/Madrid unless `over` says otherwise; `status: 3` makes it inactive.
     */
    async createGroup(name: string, over: Record<string, unknown> = {}, deviceCount = 1): Promise<{ id: number }> {
      const devices = await call<{ payload: { id: number }[] }>("GET", "/deviceGroup/getAvailableDevices");
      const weekdays = { sch_monday: "1", sch_tuesday: "1", sch_wednesday: "1", sch_thursday: "1", sch_friday: "1", sch_saturday: "0", sch_sunday: "0" };
      const r = await call<{ payload: { id: number } }>("POST", "/deviceGroup/createDeviceGroup", {
        display_name: name,
        full_name: name,
        ...weekdays,
        start_at: "08:00",
        end_at: "18:00",
        is_all_day: "0",
        time_zone_id: await this.zoneId("Europe/Madrid"),
        available_devices: devices.payload.slice(0, deviceCount).map((d) => d.id),
        ...over,
      });
      return r.payload;
    },
  };
}

/**
 * After `page.goto` or `page.reload` of a console page, waits until React has hydrated it (the root
 * sets `data-hydrated`), so a test never types into or clicks server HTML that hydration then
 * replaces. Downloads and JSON are left alone.
 */
export function awaitHydration(page: Page): void {
  for (const name of ["goto", "reload"] as const) {
    const original = page[name].bind(page) as (...args: unknown[]) => ReturnType<Page["goto"]>;
    page[name] = (async (...args: unknown[]) => {
      const response = await original(...args);
      if (response?.headers()["content-type"]?.startsWith("text/html")) await page.locator("html[data-hydrated]").waitFor({ state: "attached", timeout: 30_000 });
      return response;
    }) as Page["goto"] & Page["reload"];
  }
}

export const test = base.extend<{ loginAs: (who: DemoLogin, lang?: "en" | "es") => Promise<void> }>({
  // Pages, contexts and request contexts all address this worker's console.
  // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this pattern; this one has none
  baseURL: async ({}, use, testInfo) => {
    await use(consoleOf(testInfo).origin);
  },
  context: async ({ context }, use) => {
    await useRunClock(context);
    await use(context);
  },
  page: async ({ page }, use) => {
    awaitHydration(page);
    await use(page);
  },
  loginAs: async ({ page }, use) => {
    await use((who, lang) => signIn(page, who, lang));
  },
});

export { expect };

/**
 * Each language once and each width once, for flows the console must serve in both languages and at
 * both a desktop and a phone width: English at 1440 px, Spanish (the longer text) at 390 px. The
 * flow's server side is the same in every run, so the other two pairings would repeat it.
 */
export const LANGUAGE_AND_WIDTH_RUNS = [
  { lang: "en", width: 1440, height: 900 },
  { lang: "es", width: 390, height: 844 },
] as const;
