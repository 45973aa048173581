/**
 * SCIM filters (RFC 7644 §3.4.2.2), the part directories send: `attr op "value"` with eq, ne, co, sw,
 * ew, pr, joined by `and`/`or`, `not (…)` and parentheses. The parser is pure; the services compile
 * the tree against their own columns and refuse an attribute they do not filter on.
 */
import { ScimError } from "./errors";

export type Comparison = { kind: "cmp"; attr: string; op: "eq" | "ne" | "co" | "sw" | "ew" | "gt" | "ge" | "lt" | "le"; value: string | number | boolean | null };
export type Filter = Comparison | { kind: "pr"; attr: string } | { kind: "and" | "or"; left: Filter; right: Filter } | { kind: "not"; filter: Filter };

const MAX_FILTER = 1000;
const TOKEN = /\s*(\(|\)|"(?:[^"\\]|\\.)*"|[^\s()"]+)/y;

const bad = (detail: string): never => {
  throw new ScimError(400, detail, "invalidFilter");
};

function tokenize(text: string): string[] {
  const out: string[] = [];
  TOKEN.lastIndex = 0;
  for (;;) {
    const at = TOKEN.lastIndex;
    if (/^\s*$/.test(text.slice(at))) return out;
    const m = TOKEN.exec(text);
    if (!m) bad(`Cannot read the filter at ${at}`);
    out.push(m![1]);
  }
}

function literal(token: string | undefined): Comparison["value"] {
  if (token === undefined) bad("The filter ends where a value was expected");
  const t = token!;
  if (t.startsWith('"')) {
    try {
      return JSON.parse(t) as string;
    } catch {
      return bad("The filter has a malformed string");
    }
  }
  const lower = t.toLowerCase();
  if (lower === "true" || lower === "false") return lower === "true";
  if (lower === "null") return null;
  if (/^-?\d+(\.\d+)?$/.test(t)) return Number(t);
  return bad(`The filter value ${t} is neither a string, a number, true, false nor null`);
}

const OPS = new Set(["eq", "ne", "co", "sw", "ew", "gt", "ge", "lt", "le"]);
const ATTR = /^[A-Za-z][\w:.-]*$/;

/** The filter's tree, or a 400 `invalidFilter`. */
export function parseFilter(text: string): Filter {
  if (text.length > MAX_FILTER) bad(`A filter is at most ${MAX_FILTER} characters`);
  const tokens = tokenize(text);
  let i = 0;
  const peek = () => tokens[i]?.toLowerCase();

  function primary(): Filter {
    const t = tokens[i++];
    if (t === undefined) return bad("The filter ends where an attribute was expected");
    if (t === "(") {
      const inner = or();
      if (tokens[i++] !== ")") bad("A parenthesis in the filter is not closed");
      return inner;
    }
    if (t.toLowerCase() === "not") {
      if (tokens[i] !== "(") bad("'not' must be followed by a parenthesis");
      return { kind: "not", filter: primary() };
    }
    if (!ATTR.test(t)) bad(`${t} is not an attribute`);
    const op = tokens[i++]?.toLowerCase();
    if (op === "pr") return { kind: "pr", attr: t };
    if (!op || !OPS.has(op)) return bad(`Unknown filter operator ${op ?? "(none)"}`);
    return { kind: "cmp", attr: t, op: op as Comparison["op"], value: literal(tokens[i++]) };
  }
  function and(): Filter {
    let left = primary();
    while (peek() === "and") {
      i++;
      left = { kind: "and", left, right: primary() };
    }
    return left;
  }
  function or(): Filter {
    let left = and();
    while (peek() === "or") {
      i++;
      left = { kind: "or", left, right: and() };
    }
    return left;
  }

  const tree = or();
  if (i < tokens.length) bad(`Unexpected ${tokens[i]} in the filter`);
  return tree;
}
