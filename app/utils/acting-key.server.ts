/**
 * The API key a request acts with, for the activity log (decision 0075). The admin API runs a key's call
 * inside `actingAs`; every audit row written meanwhile (`activityValues`) names the key, whichever service
 * writes it, so no write made with a key can be logged as its creator's own.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { ApiKeyActor } from "./auth-guards.server";

const acting = new AsyncLocalStorage<ApiKeyActor>();

export const actingAs = <T>(key: ApiKeyActor | undefined, run: () => Promise<T>): Promise<T> => (key ? acting.run(key, run) : run());

/** The key of the request being served, if it came with one. */
export const actingKey = (): ApiKeyActor | undefined => acting.getStore();
