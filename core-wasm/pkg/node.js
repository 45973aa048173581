// Node convenience: a ready core built from the core.wasm beside this file.
import { readFileSync } from "node:fs";
import { createCore } from "./index.js";

export * from "./index.js";
export const core = createCore(readFileSync(new URL("./core.wasm", import.meta.url)));
export default core;
