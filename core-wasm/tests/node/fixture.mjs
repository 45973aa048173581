// Loads tests/fixtures/cases.json with window names resolved to the windows.
import { readFileSync } from "node:fs";

const raw = JSON.parse(readFileSync(new URL("../fixtures/cases.json", import.meta.url), "utf8"));
const w = (name) => raw.windows[name];
export const evals = raw.evals.map((c) => ({ ...c, window: w(c.window) }));
export const occurrences = raw.occurrences.map((c) => ({ ...c, window: w(c.window) }));
export const decisions = raw.decisions.map((c) => ({ ...c, keys: c.keys.map((k) => ({ ...k, window: w(k.window) })) }));
