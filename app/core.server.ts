/** The decision core (core-wasm) for the Worker: pages, the queue and cron handlers and the company log stores. */
// Workers only instantiate precompiled modules; wrangler turns this import into one.
import coreModule from "~core/core.wasm";
import { createCore } from "~core";

export const core = createCore(coreModule);
