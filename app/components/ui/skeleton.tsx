import type { HTMLAttributes } from "react";
import { cn } from "~/utils/cn";

/** Grey placeholder block while content loads; size it with classes (`h-4 w-32`). Hidden from assistive technology. */
export function Skeleton({ className, ...props }: HTMLAttributes<HTMLDivElement>) {
  return <div aria-hidden="true" className={cn("animate-pulse rounded-md bg-muted", className)} {...props} />;
}
