import type { ReactNode } from "react";
import { cn } from "~/utils/cn";
import { LinkButton } from "./link-button";

export interface PageHeaderProps {
  /** The page's `<h1>`. */
  title: ReactNode;
  description?: ReactNode;
  /** Primary page actions (e.g. "Add user"), right-aligned; wrap below the title on narrow screens. */
  actions?: ReactNode;
  /** The way back (a form's list), shown as an outline button after the actions. */
  back?: { to: string; label: string };
  className?: string;
}

export function PageHeader({ title, description, actions, back, className }: PageHeaderProps) {
  return (
    <header className={cn("flex flex-col gap-3 pb-5 sm:flex-row sm:items-end sm:justify-between", className)}>
      <div className="grid min-w-0 gap-1">
        <h1 className="text-2xl leading-tight font-semibold tracking-tight break-words">{title}</h1>
        {description && <p className="text-sm text-muted-foreground">{description}</p>}
      </div>
      {(actions || back) && (
        <div className="flex shrink-0 flex-wrap items-center gap-2">
          {actions}
          {back && (
            <LinkButton variant="outline" to={back.to}>
              {back.label}
            </LinkButton>
          )}
        </div>
      )}
    </header>
  );
}
