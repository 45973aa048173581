/** What every SCIM handler gets: the directory's company, the database, the core, the clock and its base URL. */
import type { Core } from "~core";
import type { Directory } from "~/services/scim-tokens.server";
import type { Db } from "~/utils/db.server";
import { ScimError } from "./errors";
import { parseFilter, type Filter } from "./filter";

export type ScimCall = { db: Db; core: Core; dir: Directory; now: number; base: string; request: Request };

export const LIST_SCHEMA = "urn:ietf:params:scim:api:messages:2.0:ListResponse";
/** The largest page a list answers (ServiceProviderConfig's `filter.maxResults`). */
export const MAX_RESULTS = 200;

export type ListQuery = { filter: Filter | null; startIndex: number; count: number };

/** `filter`, `startIndex` (1-based; less than 1 reads as 1) and `count` (0..MAX_RESULTS, default 100), RFC 7644 §3.4.2.4. */
export function listQuery(url: URL): ListQuery {
  const int = (name: string, fallback: number) => {
    const raw = url.searchParams.get(name);
    if (raw === null || raw === "") return fallback;
    if (!/^-?\d{1,9}$/.test(raw)) throw new ScimError(400, `${name} is an integer`, "invalidValue");
    return Number(raw);
  };
  const f = url.searchParams.get("filter");
  return {
    filter: f ? parseFilter(f) : null,
    startIndex: Math.max(1, int("startIndex", 1)),
    count: Math.min(MAX_RESULTS, Math.max(0, int("count", 100))),
  };
}

export const listResponse = (total: number, q: ListQuery, resources: unknown[]) => ({
  schemas: [LIST_SCHEMA],
  totalResults: total,
  startIndex: q.startIndex,
  itemsPerPage: resources.length,
  Resources: resources,
});

/** A resource's id from the path: our ids are positive integers; anything else is simply not found. */
export function resourceId(raw: string, what: string): number {
  const id = Number(raw);
  if (!/^[1-9]\d{0,15}$/.test(raw) || !Number.isSafeInteger(id)) throw new ScimError(404, `${what} ${raw} not found`);
  return id;
}

export const iso = (ms: number) => new Date(ms).toISOString();

/** If-Match (RFC 7644 §3.14): a precondition the current version must meet, or 412. */
export function assertVersion(request: Request, version: string) {
  const want = request.headers.get("If-Match");
  if (want === null) return;
  const tags = want.split(",").map((s) => s.trim());
  const bare = (t: string) => t.replace(/^W\//, "");
  if (!tags.includes("*") && !tags.some((t) => bare(t) === bare(version))) throw new ScimError(412, "The resource has changed since the version given in If-Match");
}
