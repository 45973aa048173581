import { Link, type LinkProps } from "@remix-run/react";
import type { VariantProps } from "class-variance-authority";
import { forwardRef } from "react";
import { cn } from "~/utils/cn";
import { buttonVariants } from "./button";

export type LinkButtonProps = LinkProps & VariantProps<typeof buttonVariants>;

/**
 * A Remix `<Link>` with the button's look (`buttonVariants`): a page's header actions ("Add user",
 * "Back to companies"), and with `variant="link" size="inline"` a link in a sentence or a table cell.
 */
export const LinkButton = forwardRef<HTMLAnchorElement, LinkButtonProps>(({ className, variant, size, ...props }, ref) => (
  <Link ref={ref} className={cn(buttonVariants({ variant, size }), className)} {...props} />
));
LinkButton.displayName = "LinkButton";
