import { forwardRef, type InputHTMLAttributes } from "react";
import { cn } from "~/utils/cn";

/** Shared look of text-like controls; `aria-invalid` (set by `Field`) turns the border red. */
export const controlClassName =
  "flex w-full rounded-md border border-input bg-background px-3 text-sm shadow-xs transition-colors placeholder:text-muted-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-1 focus-visible:ring-offset-background disabled:cursor-not-allowed disabled:bg-muted disabled:opacity-70 aria-invalid:border-destructive aria-invalid:focus-visible:ring-destructive";

export const Input = forwardRef<HTMLInputElement, InputHTMLAttributes<HTMLInputElement>>(({ className, type = "text", ...props }, ref) => (
  <input
    ref={ref}
    type={type}
    className={cn(controlClassName, "h-9 py-1 read-only:bg-muted file:border-0 file:bg-transparent file:text-sm file:font-medium", className)}
    {...props}
  />
));
Input.displayName = "Input";
