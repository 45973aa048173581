import * as TooltipPrimitive from "@radix-ui/react-tooltip";
import { forwardRef, type ComponentPropsWithoutRef, type ElementRef } from "react";
import { cn } from "~/utils/cn";

/*
 * Radix tooltip: shown on hover and keyboard focus, dismissed with Escape. Supplementary only:
 * an icon button still needs its own `aria-label`. Mount one TooltipProvider near the root.
 *
 *   <Tooltip>
 *     <TooltipTrigger asChild><Button size="icon" aria-label="Details">…</Button></TooltipTrigger>
 *     <TooltipContent>Open user details</TooltipContent>
 *   </Tooltip>
 */

export const TooltipProvider = TooltipPrimitive.Provider;
export const Tooltip = TooltipPrimitive.Root;
export const TooltipTrigger = TooltipPrimitive.Trigger;

export const TooltipContent = forwardRef<ElementRef<typeof TooltipPrimitive.Content>, ComponentPropsWithoutRef<typeof TooltipPrimitive.Content>>(
  ({ className, sideOffset = 4, ...props }, ref) => (
    <TooltipPrimitive.Portal>
      <TooltipPrimitive.Content
        ref={ref}
        sideOffset={sideOffset}
        className={cn("z-50 max-w-xs animate-fade-in rounded-md bg-foreground px-2.5 py-1.5 text-xs text-background shadow-md", className)}
        {...props}
      />
    </TooltipPrimitive.Portal>
  ),
);
TooltipContent.displayName = "TooltipContent";
