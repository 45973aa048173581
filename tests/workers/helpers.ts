import { env } from "cloudflare:test";
import { and, eq, type SQL } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import * as schema from "../../db/schema";
import { configureClock, nowMs } from "../../app/utils/clock.server";
import { companyLogDb, type CompanyLogEnv, type LogDb } from "../../app/utils/company-log.server";

export const ORIGIN = "https://console.test";

import { DEMO, type DemoLogin } from "../demo-logins";
import { deviceGroupBody } from "../device-group-body";

export { DEMO, type DemoLogin };
export { deviceGroupBody };

/**
 * The console Worker under test (wrangler's bundle, beside the test runner: vitest.workers.config.ts).
 * Tests call it through this binding rather than SELF: through SELF each request took longer than the
 * one before in the same file (20 ms rising to 500 ms over a few hundred requests).
 */
export const consoleWorker = (env as unknown as { CONSOLE: Fetcher }).CONSOLE;

/**
 * "Now" as the Worker under test reads it. Tests that insert rows relative to now, or compute
 * today's date, use this instead of Date.now(), so they agree with the Worker when its clock is
 * shifted (WORKERS_NOW, see vitest.workers.config.ts) and never mix two clocks.
 */
export function workerNow(): number {
  configureClock(env);
  return nowMs();
}

/**
 * The instant the demo data of every file was seeded relative to (tests/workers/setup.ts, decision
 * 0064): tests that expect a seeded date derive it from this (`demoDates`, `isoDay` in db/seed/clock.ts).
 */
export const seedNow = (): number => Number((env as unknown as { SEED_NOW: string }).SEED_NOW);

/** Drizzle over the test D1, for asserting what a call changed. */
export const db = () => drizzle(env.DB, { schema });

/** The texts the run's SMS sink (scripts/sms-sink.mjs) took for `to`, oldest first; test files text numbers of their own. */
export async function textsTo(to: string): Promise<{ to: string; body: string }[]> {
  const sink = (env as unknown as { SMS_API_URL: string }).SMS_API_URL;
  return ((await (await fetch(`${sink}/messages`)).json()) as { to: string; body: string }[]).filter((m) => m.to === to);
}
export { schema };

/** A company's activity log in its own store (the console's Durable Object), as the activity service reads it. */
export const companyLog = (companyId: number) => companyLogDb(env as unknown as CompanyLogEnv, companyId);

/**
 * The same read of every company's activity log, concatenated. The log is each company's store: D1's
 * `activity_logs` is an outbox the queue consumer drains at any moment (decision 0048), so a test that
 * looks for a row it caused reads it here, where it is whether or not it has drained yet.
 */
export async function fromEveryLog<T>(read: (log: LogDb) => Promise<T[]>): Promise<T[]> {
  const companies = await db().select({ id: schema.companies.id }).from(schema.companies);
  return (await Promise.all(companies.map((c) => read(companyLog(c.id))))).flat();
}

const { activityLogs: l, activityTypes: t } = schema;

/**
 * Every company's log entries with their activity's name, narrowed by `where` (on the log and the activity
 * catalogue): the read every audit check makes. Each row has the columns those checks compare.
 */
export const auditRows = (where?: SQL) =>
  fromEveryLog((log) =>
    log
      .select({
        id: l.id,
        name: t.name,
        companyId: l.companyId,
        op: l.operationType,
        summary: l.summary,
        details: l.detailsJson,
        by: l.createdByUserId,
        targetUserId: l.targetUserId,
        deviceId: l.targetDeviceId,
        groupId: l.targetDeviceGroupId,
        eventId: l.eventId,
        gps: l.gpsLocation,
      })
      .from(l)
      .innerJoin(t, eq(t.id, l.activityTypeId))
      .where(where),
  );

/** The entries of one activity, by its name, narrowed further by `where`. */
export const auditsNamed = (name: string, where?: SQL) => auditRows(and(eq(t.name, name), where));

export type ApiResponse<T = any> = { status: number; body: T & { message?: string; payload?: any } };

/** Calls the Worker: `api(token, "POST", "/api/admin/user/addUser", {...})`. A string body is sent as is. */
export async function api<T = any>(token: string | null, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<ApiResponse<T>> {
  const init: RequestInit = { method, headers: { ...headers } };
  if (token) (init.headers as Record<string, string>).Authorization = token;
  if (body !== undefined) {
    if (body instanceof FormData) init.body = body;
    else {
      (init.headers as Record<string, string>)["Content-Type"] = "application/json";
      init.body = typeof body === "string" ? body : JSON.stringify(body);
    }
  }
  const res = await consoleWorker.fetch(ORIGIN + path, init);
  const text = await res.text();
  let parsed: any = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    /* non-JSON answers stay text, so a test can assert on them */
  }
  return { status: res.status, body: parsed };
}

/** Signs in through the admin API and returns the token. */
export async function login(who: DemoLogin): Promise<string> {
  const r = await api(null, "POST", "/api/admin/user/login", DEMO[who]);
  if (r.status !== 200) throw new Error(`login ${who} failed: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.token as string;
}

/** Signs in through the console's sign-in form and returns the session cookie (`__session=…`), for page routes. */
export async function pageCookie(who: DemoLogin): Promise<string> {
  const res = await consoleWorker.fetch(`${ORIGIN}/login`, {
    method: "POST",
    body: new URLSearchParams({ companyId: DEMO[who].companyId, userName: DEMO[who].userName, password: DEMO[who].password }),
    headers: { Host: new URL(ORIGIN).host, Origin: ORIGIN },
    redirect: "manual",
  });
  if (res.status !== 302) throw new Error(`page sign-in ${who} failed: ${res.status}`);
  return res.headers
    .getSetCookie()
    .find((c) => c.startsWith("__session="))!
    .split(";")[0];
}

/** Forgets failed sign-ins, so a throttling test does not lock out the tests after it. */
export async function resetThrottles(): Promise<void> {
  await env.DB.prepare("delete from login_throttles").run();
}

/** The id of the Europe/Madrid zone row, the zone the tests' device groups keep their hours in. */
export async function madridZoneId(): Promise<number> {
  return (await db().query.timeZones.findFirst({ where: eq(schema.timeZones.name, "Europe/Madrid") }))!.id;
}

/** Creates a device group through the API (body as `deviceGroupBody`, in Madrid's zone) and returns its id; anything but a 200 throws. */
export async function createDeviceGroup(token: string, name: string, deviceIds: number[], over: Record<string, unknown> = {}): Promise<number> {
  const r = await api(token, "POST", "/api/admin/deviceGroup/createDeviceGroup", deviceGroupBody(await madridZoneId(), name, deviceIds, over));
  if (r.status !== 200) throw new Error(`createDeviceGroup ${name} failed: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.payload.id as number;
}
