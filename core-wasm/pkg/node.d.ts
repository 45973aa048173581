import type { Core } from "./index.js";
export * from "./index.js";
/** A core instantiated from the core.wasm beside this file. */
export declare const core: Core;
export default core;
