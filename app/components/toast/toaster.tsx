import * as ToastPrimitive from "@radix-ui/react-toast";
import { useEffect } from "react";
import { AlertCircleIcon, CheckCircleIcon, InfoIcon, XIcon } from "~/components/ui/icons";
import { cn } from "~/utils/cn";
import { TOAST_DURATION_MS, type ToastMessage, type ToastType } from "~/utils/toast-cookie";
import { toast as showToast, useToast } from "./toast-store";

const styles: Record<ToastType, { icon: typeof InfoIcon; className: string; iconClassName: string }> = {
  success: { icon: CheckCircleIcon, className: "border-l-success", iconClassName: "text-success" },
  error: { icon: AlertCircleIcon, className: "border-l-destructive", iconClassName: "text-destructive" },
  info: { icon: InfoIcon, className: "border-l-primary", iconClassName: "text-primary" },
};

export interface ToasterProps {
  /** A toast flashed by the server (e.g. from the root loader); shown whenever a new value arrives. */
  toast?: ToastMessage | null;
  /** Screen-reader label of the close button and of the notification region (translate them). */
  closeLabel?: string;
  regionLabel?: string;
}

/**
 * Mount once in the root layout. Shows one toast at a time in the top-right corner for
 * 5 seconds (paused while hovered or focused), closable with the button, Escape or a swipe.
 * Errors are announced assertively, other toasts politely.
 */
export function Toaster({ toast: serverToast, closeLabel = "Close", regionLabel = "Notifications" }: ToasterProps) {
  const { active, dismiss } = useToast();

  // Loader data gets a new identity each time the loader runs, so each flashed toast shows once.
  useEffect(() => {
    if (serverToast) showToast(serverToast);
  }, [serverToast]);

  const style = active ? styles[active.type] : null;

  return (
    <ToastPrimitive.Provider duration={TOAST_DURATION_MS} swipeDirection="right" label={regionLabel}>
      {active && style && (
        <ToastPrimitive.Root
          key={active.id}
          type={active.type === "error" ? "foreground" : "background"}
          // Radix announces the text once through its own live region; the visible toast is a plain item
          // of the viewport's list (a role on it would break the list) and stays silent so it is not read twice.
          aria-live="off"
          data-type={active.type}
          aria-atomic="true"
          onOpenChange={(open) => {
            if (!open) dismiss();
          }}
          className={cn(
            "pointer-events-auto relative flex w-full items-start gap-3 rounded-md border border-l-4 bg-card p-4 pr-10 text-card-foreground shadow-lg data-[state=open]:animate-slide-in-right data-[swipe=move]:translate-x-(--radix-toast-swipe-move-x) data-[swipe=cancel]:translate-x-0 data-[swipe=end]:hidden",
            style.className,
          )}
        >
          <style.icon className={cn("mt-0.5 size-5 shrink-0", style.iconClassName)} />
          <div className="grid min-w-0 gap-1">
            {active.title && <ToastPrimitive.Title className="text-sm font-semibold">{active.title}</ToastPrimitive.Title>}
            <ToastPrimitive.Description className="text-sm break-words text-muted-foreground">{active.message}</ToastPrimitive.Description>
          </div>
          <ToastPrimitive.Close
            className="absolute top-3 right-3 rounded-sm p-0.5 text-muted-foreground hover:text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
            aria-label={closeLabel}
          >
            <XIcon className="size-4" />
          </ToastPrimitive.Close>
        </ToastPrimitive.Root>
      )}
      <ToastPrimitive.Viewport className="fixed top-0 right-0 z-[100] flex w-full flex-col p-4 outline-none sm:max-w-sm" />
    </ToastPrimitive.Provider>
  );
}
