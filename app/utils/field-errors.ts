/** How an issue's path names its field: the first segment by default, `path.join(".")` for nested forms. */
export type FieldKey = (path: (string | number)[]) => string;

const firstSegment: FieldKey = (path) => String(path[0] ?? "_");

/**
 * zod issues grouped by field, in the `{field: [messages]}` shape that forms and the API's `errors`
 * object use. Client-safe: forms call it for their browser checks, `parseInput` on the server.
 */
export function issuesByField(issues: readonly { path: (string | number)[]; message: string }[], keyOf: FieldKey = firstSegment): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const i of issues) (out[keyOf(i.path) || "_"] ??= []).push(i.message);
  return out;
}
