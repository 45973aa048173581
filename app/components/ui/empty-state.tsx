import type { ReactNode } from "react";
import { cn } from "~/utils/cn";
import { InboxIcon } from "./icons";

export interface EmptyStateProps {
  title: ReactNode;
  description?: ReactNode;
  /** Replaces the default inbox icon; pass `null` for none. */
  icon?: ReactNode;
  /** E.g. an "Add user" button. */
  action?: ReactNode;
  className?: string;
}

/** Placeholder for a list or table with nothing to show, e.g. "No assigned programmers". */
export function EmptyState({ title, description, icon, action, className }: EmptyStateProps) {
  return (
    <div className={cn("flex flex-col items-center justify-center gap-2 px-4 py-10 text-center", className)}>
      {icon === undefined ? <InboxIcon className="size-8 text-muted-foreground/70" /> : icon}
      <p className="text-sm font-medium">{title}</p>
      {description && <p className="max-w-sm text-sm text-muted-foreground">{description}</p>}
      {action && <div className="mt-2">{action}</div>}
    </div>
  );
}
