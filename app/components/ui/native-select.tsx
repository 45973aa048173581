import { forwardRef, type SelectHTMLAttributes } from "react";
import { cn } from "~/utils/cn";
import { ChevronDownIcon } from "./icons";
import { controlClassName } from "./input";

/**
 * A styled native `<select>`: preferred in forms because it works without JavaScript, posts
 * with the form and gives the platform's own keyboard and mobile pickers.
 *
 *   <NativeSelect name="timeZone" defaultValue="UTC">
 *     {zones.map((z) => <option key={z.id} value={z.id}>{z.name}</option>)}
 *   </NativeSelect>
 */
export const NativeSelect = forwardRef<HTMLSelectElement, SelectHTMLAttributes<HTMLSelectElement>>(({ className, children, ...props }, ref) => (
  <div className={cn("relative w-full", className)}>
    <select ref={ref} className={cn(controlClassName, "h-9 cursor-pointer appearance-none py-1 pr-9")} {...props}>
      {children}
    </select>
    <ChevronDownIcon className="pointer-events-none absolute top-1/2 right-3 -translate-y-1/2 text-muted-foreground" />
  </div>
));
NativeSelect.displayName = "NativeSelect";
