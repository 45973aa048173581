import type { ReactNode } from "react";

export type DetailItem = { key: string; label: ReactNode; value: ReactNode };

/** A read-only label/value list; items that do not apply are left out by the caller. */
export function DetailList({ items }: { items: DetailItem[] }) {
  return (
    <dl className="grid gap-x-6 gap-y-3 sm:grid-cols-2">
      {items.map((i) => (
        <div key={i.key} className="grid gap-0.5" data-testid={`detail-${i.key}`}>
          <dt className="text-xs font-medium text-muted-foreground">{i.label}</dt>
          <dd className="text-sm break-words">{i.value === "" || i.value == null ? "-" : i.value}</dd>
        </div>
      ))}
    </dl>
  );
}
