import { forwardRef, type TextareaHTMLAttributes } from "react";
import { cn } from "~/utils/cn";
import { controlClassName } from "./input";

export const Textarea = forwardRef<HTMLTextAreaElement, TextareaHTMLAttributes<HTMLTextAreaElement>>(({ className, rows = 3, ...props }, ref) => (
  <textarea ref={ref} rows={rows} className={cn(controlClassName, "min-h-16 py-2 read-only:bg-muted", className)} {...props} />
));
Textarea.displayName = "Textarea";
