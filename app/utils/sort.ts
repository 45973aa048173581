/**
 * A table's sort as it travels in URLs (`?sort=-name`): read by loaders and services, written by the
 * table's links. Pure and client-safe, so components and services share it.
 */

export interface TableSort {
  key: string;
  desc: boolean;
}

/** "-name" → { key: "name", desc: true }; "" → null. */
export function parseSort(value: string | null | undefined): TableSort | null {
  if (!value) return null;
  const desc = value.startsWith("-");
  const key = desc ? value.slice(1) : value;
  return key ? { key, desc } : null;
}

/** { key: "name", desc: true } → "-name". */
export function formatSort(sort: TableSort): string {
  return `${sort.desc ? "-" : ""}${sort.key}`;
}
