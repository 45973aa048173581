/** A parsed SCIM filter as a SQL condition over one resource's columns (users or groups). */
import { and, not, or, sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { ScimError } from "./errors";
import type { Filter } from "./filter";

/**
 * How an attribute is compared: strings case-insensitively unless `caseExact` (RFC 7643 §2.2); a "value"
 * (a custom field's) with eq or ne only, the filter's value first read by `normalise` (null: matches nothing).
 */
export type FilterColumn =
  { col: SQLiteColumn | SQL; type: "string" | "boolean" | "id"; caseExact?: boolean } | { col: SQL; type: "value"; normalise: (raw: string | number) => string | null };

const bad = (detail: string): never => {
  throw new ScimError(400, detail, "invalidFilter");
};

/** `columns` is keyed by the lower-cased attribute path (`username`, `emails.value`). */
export function filterSql(f: Filter, columns: Record<string, FilterColumn>): SQL {
  switch (f.kind) {
    case "and":
      return and(filterSql(f.left, columns), filterSql(f.right, columns)) as SQL;
    case "or":
      return or(filterSql(f.left, columns), filterSql(f.right, columns)) as SQL;
    case "not":
      return not(filterSql(f.filter, columns));
    case "pr": {
      const c = columnOf(f.attr, columns);
      return c.type === "string" ? sql`coalesce(${c.col}, '') <> ''` : sql`${c.col} is not null`;
    }
    case "cmp": {
      const c = columnOf(f.attr, columns);
      if (c.type === "boolean") {
        if (typeof f.value !== "boolean" || (f.op !== "eq" && f.op !== "ne")) bad(`${f.attr} is compared with eq or ne and true or false`);
        return f.op === "eq" ? sql`${c.col} = ${f.value ? 1 : 0}` : sql`${c.col} <> ${f.value ? 1 : 0}`;
      }
      if (c.type === "value") {
        if (f.op !== "eq" && f.op !== "ne") bad(`${f.attr} is compared with eq or ne`);
        if (typeof f.value !== "string" && typeof f.value !== "number") return bad(`${f.attr} is compared with a string or a number`);
        const v = c.normalise(f.value);
        const cond = v === null ? sql`0` : sql`lower(coalesce(${c.col}, '')) = ${v.toLowerCase()}`;
        return f.op === "eq" ? cond : not(cond);
      }
      if (c.type === "id") {
        if (f.op !== "eq" && f.op !== "ne") bad(`${f.attr} is compared with eq or ne`);
        const id = Number(f.value);
        // An id that is not one of ours matches nothing rather than failing: a directory asks before it creates.
        const cond = Number.isSafeInteger(id) && id > 0 ? sql`${c.col} = ${id}` : sql`0`;
        return f.op === "eq" ? cond : not(cond);
      }
      if (typeof f.value !== "string") return bad(`${f.attr} is compared with a string`);
      const col = c.caseExact ? sql`coalesce(${c.col}, '')` : sql`lower(coalesce(${c.col}, ''))`;
      const v = c.caseExact ? f.value : f.value.toLowerCase();
      if (v === "" && (f.op === "co" || f.op === "sw" || f.op === "ew")) return sql`1`;
      switch (f.op) {
        case "eq":
          return sql`${col} = ${v}`;
        case "ne":
          return sql`${col} <> ${v}`;
        case "co":
          return sql`instr(${col}, ${v}) > 0`;
        case "sw":
          return sql`substr(${col}, 1, ${v.length}) = ${v}`;
        case "ew":
          return sql`substr(${col}, -${v.length}) = ${v}`;
        default:
          return sql`${col} ${sql.raw({ gt: ">", ge: ">=", lt: "<", le: "<=" }[f.op])} ${v}`;
      }
    }
  }
}

function columnOf(attr: string, columns: Record<string, FilterColumn>): FilterColumn {
  // A schema-qualified name (urn:…:User:userName) is the same attribute.
  const key = attr.toLowerCase().replace(/^urn:ietf:params:scim:schemas:core:2\.0:(user|group):/, "");
  return columns[key] ?? bad(`Filtering on ${attr} is not supported`);
}
