/**
 * URL search params of server-side tables, shared by loaders (to query) and `DataTable` (to
 * build links). Pure and total: malformed input falls back to defaults instead of throwing.
 *
 *   page      1-based page number             ?page=3
 *   pageSize  rows per page                   ?pageSize=50
 *   sort      column id, "-" prefix = desc    ?sort=-lastActivity
 *
 * Any other params (filters such as `hideInactive=1`) are left alone and preserved by the links.
 */
import { formatSort, parseSort, type TableSort } from "~/utils/sort";

export const PAGE_PARAM = "page";
export const PAGE_SIZE_PARAM = "pageSize";
export const SORT_PARAM = "sort";

/** Grids show 25 rows per page (docs/ARCHITECTURE.md §7.3). */
export const DEFAULT_PAGE_SIZE = 25;
const DEFAULT_MAX_PAGE_SIZE = 100;

export interface TableParams {
  page: number;
  pageSize: number;
  /** Rows to skip: `(page - 1) * pageSize`. */
  offset: number;
  sort: TableSort;
}

export interface TableParamsOptions {
  /** Sort used when the URL has none or an unknown one, e.g. "name" or "-lastActivity". */
  defaultSort: string;
  /** Column ids the server can sort by; anything else in `?sort=` is ignored. */
  sortable: readonly string[];
  /** Default rows per page (25). */
  pageSize?: number;
  /** Largest `?pageSize=` accepted (100); larger values fall back to the default. */
  maxPageSize?: number;
}

function positiveInteger(value: string | null): number | null {
  if (value === null || !/^\d{1,9}$/.test(value.trim())) return null;
  const n = Number(value.trim());
  return n >= 1 ? n : null;
}

function searchParamsOf(input: URL | URLSearchParams | string): URLSearchParams {
  if (input instanceof URLSearchParams) return input;
  if (input instanceof URL) return input.searchParams;
  try {
    return new URL(input, "http://localhost").searchParams;
  } catch {
    return new URLSearchParams();
  }
}

/**
 * Reads page, page size and sort from a request URL (or its search params), validated against
 * `options`.
 *
 *   const { offset, pageSize, sort } = parseTableParams(request.url, { defaultSort: "name", sortable: ["name", "email"] });
 */
export function parseTableParams(input: URL | URLSearchParams | string, options: TableParamsOptions): TableParams {
  const params = searchParamsOf(input);
  const maxPageSize = options.maxPageSize ?? DEFAULT_MAX_PAGE_SIZE;
  const defaultPageSize = options.pageSize ?? DEFAULT_PAGE_SIZE;

  const requestedSize = positiveInteger(params.get(PAGE_SIZE_PARAM));
  const pageSize = requestedSize !== null && requestedSize <= maxPageSize ? requestedSize : defaultPageSize;
  const page = positiveInteger(params.get(PAGE_PARAM)) ?? 1;

  const requestedSort = parseSort(params.get(SORT_PARAM));
  const sort = requestedSort && options.sortable.includes(requestedSort.key) ? requestedSort : (parseSort(options.defaultSort) ?? { key: options.defaultSort, desc: false });

  return { page, pageSize, offset: (page - 1) * pageSize, sort };
}

/** One page of a service's list, in the shape most list services take: `{ sort, page: { offset, limit } }`. */
export interface TableSlice {
  sort: TableSort;
  page: { offset: number; limit: number };
}

/**
 * A list loader's core: parses the table params, asks `query` for that page (with the params and
 * the same as a `TableSlice`) and returns its answer with the params, which `DataTable` reads.
 *
 *   return tablePage(request.url, { defaultSort: "name", sortable: Object.keys(ROLE_SORTS) }, (_, slice) => listRoles(db, auth, slice));
 */
export async function tablePage<T extends { total: number }>(
  input: URL | URLSearchParams | string,
  options: TableParamsOptions,
  query: (params: TableParams, slice: TableSlice) => Promise<T>,
): Promise<T & { params: TableParams }> {
  const params = parseTableParams(input, options);
  const result = await query(params, { sort: params.sort, page: { offset: params.offset, limit: params.pageSize } });
  return { ...result, params };
}

/** Number of pages for `total` rows (at least 1, so "page 1 of 1" holds for an empty table). */
export function pageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(Math.max(0, total) / Math.max(1, pageSize)));
}

/** 1-based first and last row numbers shown on `page`, e.g. page 2 of 25 → { from: 26, to: 50 }; {0, 0} when empty. */
export function pageRange(page: number, pageSize: number, total: number): { from: number; to: number } {
  const from = (page - 1) * pageSize + 1;
  if (total <= 0 || from > total) return { from: 0, to: 0 };
  return { from, to: Math.min(page * pageSize, total) };
}

export interface TableParamChanges {
  page?: number;
  pageSize?: number;
  sort?: TableSort;
}

/**
 * The search string (with "?") for the current params with `changes` applied; every other
 * param is kept. Page 1 is written by omitting `page`, and changing the sort or page size
 * goes back to page 1 because the old page number no longer points at the same rows.
 */
export function tableSearch(current: URLSearchParams | string, changes: TableParamChanges): string {
  const next = new URLSearchParams(current);
  let page = changes.page;
  if (changes.sort) {
    next.set(SORT_PARAM, formatSort(changes.sort));
    page = 1;
  }
  if (changes.pageSize !== undefined) {
    next.set(PAGE_SIZE_PARAM, String(changes.pageSize));
    page = 1;
  }
  if (page !== undefined) {
    if (page > 1) next.set(PAGE_PARAM, String(page));
    else next.delete(PAGE_PARAM);
  }
  const search = next.toString();
  return search ? `?${search}` : "";
}

/** Sort applied when a header is activated: ascending first, then toggling direction. */
export function nextSort(current: TableSort, key: string): TableSort {
  return current.key === key ? { key, desc: !current.desc } : { key, desc: false };
}
