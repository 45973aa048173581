/**
 * Webhook deliveries in the Workers tests: the real receiver on 127.0.0.1 (scripts/webhook-receiver.mjs,
 * started by vitest.workers.config.ts) and the work that turns activity into deliveries, run on demand.
 */
import { createExecutionContext, createMessageBatch, env, waitOnExecutionContext } from "cloudflare:test";
import { background } from "../../worker-background";
import { companyLogStub, type CompanyLogEnv } from "../../app/utils/company-log.server";
import { db, schema } from "./helpers";

/** The receiver's origin; an endpoint's URL is `${RECEIVER}/hooks/<name>`. */
export const RECEIVER = (env as unknown as { WEBHOOK_RECEIVER_URL: string }).WEBHOOK_RECEIVER_URL;

export type Received = { headers: Record<string, string>; body: string; answered: number };
export const received = async (name: string): Promise<Received[]> => (await fetch(`${RECEIVER}/hooks/${name}`)).json();

/** Waits (polling the receiver, no fixed sleep) until `name` has received at least `n` requests. */
export async function receivedAtLeast(name: string, n: number): Promise<Received[]> {
  for (let i = 0; i < 200; i++) {
    const list = await received(name);
    if (list.length >= n) return list;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${name} received fewer than ${n} requests`);
}

/** The alert queue's consumer with one wake-up, then every store's alarm work: activity becomes events and deliveries. */
export async function wake() {
  const batch = createMessageBatch("keyless-alerts", [{ id: crypto.randomUUID(), timestamp: new Date(), attempts: 1, body: { wake: true } }]);
  const ctx = createExecutionContext();
  await background.queue(batch as never, env, ctx);
  await waitOnExecutionContext(ctx);
  const companies = await db().select({ id: schema.companies.id }).from(schema.companies);
  await Promise.all(companies.map(({ id }) => companyLogStub(env as unknown as CompanyLogEnv, id).runAlerts(id)));
}
