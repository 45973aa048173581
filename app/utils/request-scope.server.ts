/**
 * Who acts in the request being served, for its audit rows (decision 0093). server.ts runs every request
 * in a scope; resolving a support session records its grant here (auth-guards.server.ts), and every
 * audit row written meanwhile (`activityValues`) names the support and is copied to the grantee's log,
 * whichever service writes it, so no change made as support can be logged as the customer's own.
 * It also collects the companies whose gateways the request's changes must wake (decision 0118).
 */
import { AsyncLocalStorage } from "node:async_hooks";

export type SupportActor = {
  grantId: number;
  /** The staff member, as the customer's log shows them. */
  staffName: string;
  granteeCompanyId: number;
  granteeName: string;
  /** The customer company, as the grantee's log shows it. */
  companyName: string;
};

// One storage per isolate, shared by server.ts and the Remix build, which each bundle their own copy of
// this module: a module-level instance would be two, and the build would never see the request's scope.
const KEY = Symbol.for("keyless-access.request-scope");
const scope: AsyncLocalStorage<{ support?: SupportActor; wakeGateways?: Set<number> }> = ((globalThis as Record<symbol, unknown>)[KEY] ??= new AsyncLocalStorage()) as never;

export const inRequestScope = <T>(run: () => Promise<T>): Promise<T> => scope.run({}, run);

/** Called when the request's caller resolves to a support session. */
export function noteSupportActor(actor: SupportActor): void {
  const store = scope.getStore();
  if (store) store.support = actor;
}

/** The support session the request acts in, if any. */
export const supportActor = (): SupportActor | undefined => scope.getStore()?.support;

/**
 * Called when the request changes what a company's doors must know at once (a lockdown's start or end):
 * once the response is ready, server.ts wakes the gateways of the company's cell (decision 0118).
 */
export function noteGatewayWake(companyId: number): void {
  const store = scope.getStore();
  if (store) (store.wakeGateways ??= new Set()).add(companyId);
}

/** The companies whose gateways the request asked to wake. */
export const gatewayWakes = (): number[] => [...(scope.getStore()?.wakeGateways ?? [])];
