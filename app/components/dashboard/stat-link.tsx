import { Link } from "@remix-run/react";
import type { ReactNode } from "react";

/**
 * One dashboard number: the whole card links to the list it counts. Its name is what it shows
 * ("12 Active users"), so a voice user says what they see (axe's label-content-name-mismatch).
 */
export function StatLink({ to, label, value, testId, extra }: { to: string; label: string; value: number; testId: string; extra?: ReactNode }) {
  return (
    <li className="flex flex-col rounded-xl border border-border bg-card shadow-sm transition hover:border-primary hover:shadow-md">
      <Link to={to} data-testid={testId} className="flex flex-1 flex-col gap-1 rounded-xl p-4 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring">
        <span className="text-3xl font-semibold tabular-nums" data-testid={`${testId}-value`}>
          {value}
        </span>
        <span className="text-sm text-muted-foreground">{label}</span>
      </Link>
      {extra}
    </li>
  );
}
