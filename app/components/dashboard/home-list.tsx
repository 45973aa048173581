import type { ReactNode } from "react";

/** A home card's rows, or the sentence that says there are none. `children` renders each row's `<li>`. */
export function HomeList<T>({ items, empty, children }: { items: readonly T[]; empty: string; children: (item: T) => ReactNode }) {
  if (items.length === 0) return <p className="text-sm text-muted-foreground">{empty}</p>;
  return <ul className="divide-y divide-border">{items.map(children)}</ul>;
}

/** A home's row of figures under its heading; each child is a `StatLink`. */
export function HomeStats({ id, title, className, children, after }: { id: string; title: string; className: string; children: ReactNode; after?: ReactNode }) {
  return (
    <section aria-labelledby={id} className="space-y-3">
      <h2 id={id} className="text-lg font-medium">
        {title}
      </h2>
      <ul className={className}>{children}</ul>
      {after}
    </section>
  );
}
