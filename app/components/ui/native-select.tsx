import { forwardRef, type SelectHTMLAttributes } from "react";
import { cn } from "~/utils/cn";
import { ChevronDownIcon } from "./icons";
import { controlClassName } from "./input";

/**
 * A styled native `<select>`: preferred in forms because it works without JavaScript, posts
 * with the form and gives the platform's own keyboard and mobile pickers.
 *
 *   <NativeSelect name="timeZone" defaultValue="UTC" options={zones.map((z) => ({ value: z.id, label: z.name }))} />
 *
 * `children` come before the options (a leading "Choose…" option).
 */
export type SelectOption = { value: string | number; label: string | number };

export const NativeSelect = forwardRef<HTMLSelectElement, SelectHTMLAttributes<HTMLSelectElement> & { options?: readonly SelectOption[] }>(
  ({ className, children, options, ...props }, ref) => (
    <div className={cn("relative w-full", className)}>
      <select ref={ref} className={cn(controlClassName, "h-9 cursor-pointer appearance-none py-1 pr-9")} {...props}>
        {children}
        {options?.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      <ChevronDownIcon className="pointer-events-none absolute top-1/2 right-3 -translate-y-1/2 text-muted-foreground" />
    </div>
  ),
);
NativeSelect.displayName = "NativeSelect";
