import { useEffect, useRef, useState } from "react";
import { matchesText, type PickerOption } from "./search-picker-state";

/**
 * Where a search picker's entries come from:
 * - `options`: a list the page already has, narrowed in the page by `match` (by default: the search is in
 *   the label or the detail);
 * - `url`: a resource route answering the search `&q=` with a page of matches (20 at a time), so a company
 *   of 10,000 people never sends them all to the page; `read` turns its answer into entries. With `once`,
 *   the whole (short) list is asked for when the list first opens and narrowed in the page by `match`.
 */
export type PickerSource = ({ options: readonly PickerOption[] } | { url: string; read: (body: unknown) => PickerOption[]; once?: boolean }) & {
  match?: (o: PickerOption, query: string) => boolean;
};

const withQuery = (url: string, q: string) => `${url}${url.includes("?") ? "&" : "?"}q=${encodeURIComponent(q)}`;

/** The entries for a search while the list is open; `loading` while the server's answer is on its way. */
export function usePickerOptions(source: PickerSource, query: string, open: boolean): { results: PickerOption[]; loading: boolean } {
  const url = "url" in source ? source.url : null;
  const once = "url" in source && !!source.once;
  const asked = once ? "" : query;
  const [found, setFound] = useState<{ key: string; options: PickerOption[] } | null>(null);
  const read = useRef<(body: unknown) => PickerOption[]>();
  read.current = "url" in source ? source.read : undefined;
  const key = url === null ? "" : withQuery(url, asked);

  // The latest search wins: an earlier answer arriving late is dropped. Typing pauses before asking.
  useEffect(() => {
    if (url === null || !open || found?.key === key) return;
    const control = new AbortController();
    const timer = setTimeout(
      () =>
        fetch(key, { signal: control.signal, headers: { Accept: "application/json" } })
          .then((r) => (r.ok ? r.json() : null))
          .then((body) => setFound({ key, options: body ? (read.current?.(body) ?? []) : [] }))
          .catch(() => undefined),
      asked ? 150 : 0,
    );
    return () => {
      clearTimeout(timer);
      control.abort();
    };
    // `found` is read only to skip asking again for the answer already here.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [url, key, open, asked]);

  const { match = matchesText } = source;
  const narrow = (all: readonly PickerOption[]) => (query.trim() ? all.filter((o) => match(o, query)) : [...all]);
  if ("options" in source) return { results: narrow(source.options), loading: false };
  if (found?.key !== key) return { results: [], loading: true };
  return { results: once ? narrow(found.options) : found.options, loading: false };
}
