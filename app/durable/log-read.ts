/**
 * The read statements a log store takes from outside (drizzle's sqlite-proxy protocol): the activity
 * service's own SQL, one SELECT at a time, rows as arrays.
 */
export type ProxyMethod = "run" | "all" | "values" | "get";
export type ProxyQuery = { sql: string; params: SqlStorageValue[]; method: ProxyMethod };
/** All rows as arrays of values; for `get`, the first row alone (or none). */
export type ProxyRows = SqlStorageValue[][] | SqlStorageValue[] | undefined;

export function readOnly(sql: SqlStorage, { sql: text, params, method }: ProxyQuery): ProxyRows {
  // A log store changes only by its own writes: SQL from outside only reads, one statement (drizzle's
  // never contain a semicolon; the values are bound parameters).
  if (method === "run" || !/^\s*select\b/i.test(text) || text.includes(";")) throw new Error("The company log takes read statements only");
  const rows = Array.from(sql.exec(text, ...params).raw());
  // drizzle reads a missing row as `undefined`.
  return method === "get" ? rows[0] : rows;
}
