import { cva, type VariantProps } from "class-variance-authority";
import type { HTMLAttributes, ReactNode } from "react";
import { cn } from "~/utils/cn";
import { AlertCircleIcon, AlertTriangleIcon, InfoIcon } from "./icons";

export const alertVariants = cva("flex w-full gap-3 rounded-lg border p-4 text-sm [&>svg]:mt-0.5 [&>svg]:size-4 [&>svg]:shrink-0", {
  variants: {
    variant: {
      info: "border-primary/25 bg-primary/5 text-foreground [&>svg]:text-primary",
      warning: "border-warning/60 bg-warning/10 text-foreground [&>svg]:text-warning-foreground",
      destructive: "border-destructive/40 bg-destructive/5 text-foreground [&>svg]:text-destructive",
    },
  },
  defaultVariants: { variant: "info" },
});

const icons = { info: InfoIcon, warning: AlertTriangleIcon, destructive: AlertCircleIcon };

export interface AlertProps extends HTMLAttributes<HTMLDivElement>, VariantProps<typeof alertVariants> {
  /** Buttons on the right (stacked below on narrow screens), e.g. "Approve account". */
  actions?: ReactNode;
}

/**
 * In-page banner (flagged account, low coin-cell battery…). Destructive banners use
 * `role="alert"` so they are announced when they appear; others are a polite `status`.
 *
 *   <Alert variant="warning" actions={<Button size="sm">Approve</Button>}>
 *     <AlertTitle>Account flagged</AlertTitle>
 *     <AlertDescription>This account was flagged for suspicious activity.</AlertDescription>
 *   </Alert>
 */
export function Alert({ className, variant, actions, children, ...props }: AlertProps) {
  const Icon = icons[variant ?? "info"];
  return (
    <div role={variant === "destructive" ? "alert" : "status"} className={cn(alertVariants({ variant }), className)} {...props}>
      <Icon />
      <div className="flex min-w-0 flex-1 flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <div className="grid gap-1">{children}</div>
        {actions && <div className="flex shrink-0 flex-wrap gap-2">{actions}</div>}
      </div>
    </div>
  );
}

export function AlertTitle({ className, ...props }: HTMLAttributes<HTMLParagraphElement>) {
  return <p className={cn("leading-tight font-semibold", className)} {...props} />;
}

export function AlertDescription({ className, ...props }: HTMLAttributes<HTMLDivElement>) {
  return <div className={cn("text-muted-foreground", className)} {...props} />;
}
