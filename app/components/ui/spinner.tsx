import type { SVGProps } from "react";
import { cn } from "~/utils/cn";

/**
 * Indeterminate progress indicator. Decorative by default (the busy element carries
 * `aria-busy`); pass `label` when the spinner alone tells the user something is loading.
 */
export function Spinner({ className, label, ...props }: SVGProps<SVGSVGElement> & { label?: string }) {
  return (
    <svg
      xmlns="http://www.w3.org/2000/svg"
      viewBox="0 0 24 24"
      fill="none"
      className={cn("size-4 animate-spin", className)}
      role={label ? "img" : undefined}
      aria-label={label}
      aria-hidden={label ? undefined : true}
      focusable="false"
      {...props}
    >
      <circle cx="12" cy="12" r="10" stroke="currentColor" strokeWidth="3" className="opacity-25" />
      <path d="M22 12a10 10 0 0 0-10-10" stroke="currentColor" strokeWidth="3" strokeLinecap="round" />
    </svg>
  );
}
