/**
 * The committed types are what openapi-typescript makes of the committed document: a hand edit of
 * sdk/src/schema.d.ts, or a document regenerated without its types, fails here. (That the document is the
 * one the code serves is tests/workers/openapi-complete.test.ts.) Regenerate both with `npm run sdk:generate`.
 */
import fs from "node:fs";
import { expect, it } from "vitest";
import { schemaTypes } from "../scripts/types.mjs";

const read = (file: string) => fs.readFileSync(new URL(`../${file}`, import.meta.url), "utf8");

// openapi-typescript takes about 2 s over the 1.4 MB document on a quiet machine: room for a busy one.
it("sdk/src/schema.d.ts is generated from sdk/openapi.json", { timeout: 30_000 }, async () => {
  const generated = await schemaTypes(JSON.parse(read("openapi.json")));
  // Compared as text, but reported by its first differing line rather than a 800 kB diff.
  const committed = read("src/schema.d.ts");
  if (generated === committed) return;
  const [a, b] = [generated.split("\n"), committed.split("\n")];
  const line = a.findIndex((l, i) => l !== b[i]);
  expect.fail(`sdk/src/schema.d.ts differs from its generation at line ${line + 1}: "${b[line]}" instead of "${a[line]}"; run npm run sdk:generate`);
});
