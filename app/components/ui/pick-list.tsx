import type { ReactNode } from "react";
import { cn } from "~/utils/cn";

type Props<T> = {
  id: string;
  title: string;
  /** shown instead of the list when it has no items */
  empty: string;
  items: T[];
  onPick: (item: T) => void;
  children: (item: T) => ReactNode;
  heading?: "h2" | "h3";
  invalid?: boolean;
  describedBy?: string;
};

/**
 * One side of the spec's two-list movers (devices of a group, fob programmers): activating an entry
 * (click, Enter or Space on its button) hands it to `onPick`, which moves it to the other side.
 */
export function PickList<T extends { id: number }>({ id, title, empty, items, onPick, children, heading: Heading = "h3", invalid, describedBy }: Props<T>) {
  return (
    <section aria-labelledby={`${id}-title`} className={cn("grid content-start gap-2 rounded-lg border p-3", invalid && "border-destructive")}>
      <Heading id={`${id}-title`} className="text-sm font-semibold">
        {title} <span className="font-normal text-muted-foreground">({items.length})</span>
      </Heading>
      {items.length === 0 ? (
        <p className="text-sm text-muted-foreground">{empty}</p>
      ) : (
        <ul className="max-h-64 overflow-y-auto" data-testid={id} aria-describedby={describedBy}>
          {items.map((item) => (
            <li key={item.id}>
              <button
                type="button"
                onClick={() => onPick(item)}
                className="w-full rounded-md px-2 py-1.5 text-left text-sm hover:bg-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
              >
                {children(item)}
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
