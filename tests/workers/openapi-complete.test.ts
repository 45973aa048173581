/**
 * The OpenAPI document as the console Worker serves it describes every admin call with its request and its
 * answer (issue 30): the typed SDK is generated from it, so an untyped answer is an untyped SDK call. And the
 * SDK's copy of the document (sdk/openapi.json, from which sdk/src/schema.d.ts is generated) is the current
 * one: a changed API without `npm run sdk:generate` fails here (docs/decisions/0081-typed-sdk.md).
 */
import { beforeAll, describe, expect, it } from "vitest";
import committed from "../../sdk/openapi.json?raw";
import { consoleWorker, ORIGIN } from "./helpers";

type Schema = { $ref?: string; properties?: Record<string, Schema>; items?: Schema; additionalProperties?: boolean | Schema } & Record<string, unknown>;
type Operation = {
  parameters?: { name: string; in: string; schema?: Schema }[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
};
type Document = { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, Schema> } };

let doc: Document;
let text: string;
beforeAll(async () => {
  text = await (await consoleWorker.fetch(`${ORIGIN}/api/openapi.json`)).text();
  doc = JSON.parse(text) as Document;
});

const adminOperations = () =>
  Object.entries(doc.paths)
    .filter(([path]) => path.startsWith("/api/admin/"))
    .flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ name: `${method.toUpperCase()} ${path}`, path, op })));

const resolve = (s: Schema): Schema => (s.$ref ? doc.components.schemas[s.$ref.split("/").pop()!] : s);
/** A schema that says nothing of the value (`{}`, or only a description or nullable): the SDK types it `unknown`. */
const says = (s: Schema) => Object.keys(resolve(s)).some((k) => !["description", "nullable", "example", "default"].includes(k));

/** Where inside `s` a value is left untyped; a free-form record's values (`additionalProperties: {}`) are typed enough. */
function untyped(s: Schema, at: string, seen = new Set<Schema>()): string[] {
  const r = resolve(s);
  if (seen.has(r)) return [];
  seen.add(r);
  if (!says(r)) return [at];
  const inner: [Schema, string][] = [
    ...Object.entries(r.properties ?? {}).map(([k, v]): [Schema, string] => [v, `${at}.${k}`]),
    ...(r.items ? [[r.items, `${at}[]`] as [Schema, string]] : []),
    ...(["anyOf", "oneOf", "allOf"] as const).flatMap((k) => ((r[k] as Schema[] | undefined) ?? []).map((v, i): [Schema, string] => [v, `${at}|${k}${i}`])),
  ];
  return inner.flatMap(([v, where]) => untyped(v, where, seen));
}

describe("the OpenAPI document's admin calls", () => {
  it("covers the admin API", () => {
    expect(adminOperations().length).toBeGreaterThan(100);
  });

  it("gives every admin call a typed answer", () => {
    const problems = adminOperations().flatMap(({ name, op }) => {
      const ok = op.responses["200"]?.content;
      if (!ok) return [`${name}: no 200 answer`];
      const json = ok["application/json"];
      if (!json) return Object.keys(ok).length ? [] : [`${name}: no answer media type`]; // a file download
      const body = resolve(json.schema);
      if (!body.properties) return [`${name}: the answer has no fields`];
      return untyped(json.schema, `${name} answer`);
    });
    expect(problems).toEqual([]);
  });

  it("declares every admin call's input: path parameters, query parameters and JSON bodies with their fields", () => {
    const problems = adminOperations().flatMap(({ name, path, op }) => {
      const declared = (op.parameters ?? []).filter((p) => p.in === "path").map((p) => p.name);
      const inPath = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      const json = op.requestBody?.content["application/json"];
      return [
        ...inPath.filter((p) => !declared.includes(p)).map((p) => `${name}: path parameter ${p} undeclared`),
        ...(path.includes(":") ? [`${name}: a ':' path segment (use {name})`] : []),
        ...(op.parameters ?? []).filter((p) => !p.schema || !says(p.schema)).map((p) => `${name}: ${p.in} parameter ${p.name} untyped`),
        ...(json && !resolve(json.schema).properties ? [`${name}: the JSON body has no fields`] : []),
      ];
    });
    expect(problems).toEqual([]);
  });
});

describe("the SDK's copy of the document", () => {
  it("is the document the code generates (regenerate with npm run sdk:generate)", () => {
    const current = JSON.stringify(doc, null, 2) + "\n";
    if (current === committed) return;
    const old = JSON.parse(committed) as Document;
    const changed = [...new Set([...Object.keys(doc.paths), ...Object.keys(old.paths)])].filter((p) => JSON.stringify(doc.paths[p]) !== JSON.stringify(old.paths[p]));
    expect.fail(`sdk/openapi.json is stale: run npm run sdk:generate (changed paths: ${changed.slice(0, 10).join(", ") || "components or info"})`);
  });
});
