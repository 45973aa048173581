import type { ReactNode } from "react";
import { LinkButton } from "~/components/ui/link-button";

/** A titled part of a reseller's or root's home, with a link to the screen that has the whole of it. */
export function HomeCard({ id, title, more, children }: { id: string; title: string; more?: { to: string; label: string }; children: ReactNode }) {
  return (
    <section aria-labelledby={`${id}-title`} className="flex flex-col gap-3 rounded-xl border border-border bg-card p-4 shadow-sm" data-testid={id}>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id={`${id}-title`} className="text-lg font-medium">
          {title}
        </h2>
        {more && (
          <LinkButton variant="link" size="inline" to={more.to}>
            {more.label}
          </LinkButton>
        )}
      </div>
      {children}
    </section>
  );
}
