import { useNavigation } from "@remix-run/react";
import { useEffect, useState, type HTMLAttributes } from "react";
import { Spinner } from "~/components/ui/spinner";

/** Navigations faster than this never show the overlay, so quick pages don't flash. */
const SHOW_DELAY_MS = 150;
/** docs/ARCHITECTURE.md §7.3: the loader shows about one second; after that a thin top bar keeps reporting progress without blocking. */
const OVERLAY_MAX_MS = 1000;

type Phase = "idle" | "overlay" | "bar";

/** Display phase of the current navigation: nothing, blocking overlay, then progress bar only. */
function useLoadingPhase(): Phase {
  const busy = useNavigation().state !== "idle";
  const [phase, setPhase] = useState<Phase>("idle");

  useEffect(() => {
    if (!busy) {
      setPhase("idle");
      return;
    }
    const showTimer = setTimeout(() => setPhase("overlay"), SHOW_DELAY_MS);
    const shrinkTimer = setTimeout(() => setPhase("bar"), SHOW_DELAY_MS + OVERLAY_MAX_MS);
    return () => {
      clearTimeout(showTimer);
      clearTimeout(shrinkTimer);
    };
  }, [busy]);

  return phase;
}

/**
 * Mount once in the root layout. While a navigation or submission takes longer than 150 ms it
 * covers the page with a spinner for up to a second, then leaves a thin progress bar until
 * the page is ready. Purely visual: pair it with `<BusyMain>` for assistive technology.
 */
export function LoadingOverlay({ label = "Loading" }: { label?: string }) {
  const phase = useLoadingPhase();
  if (phase === "idle") return null;
  return (
    <>
      <div className="fixed inset-x-0 top-0 z-[90] h-0.5 overflow-hidden bg-primary/20" aria-hidden="true">
        <div className="h-full w-1/3 animate-pulse bg-primary" />
      </div>
      {phase === "overlay" && (
        <div className="fixed inset-0 z-[80] flex animate-fade-in items-center justify-center bg-background/60">
          <div className="rounded-full bg-card p-3 shadow-lg">
            <Spinner className="size-8 text-primary" label={label} />
          </div>
        </div>
      )}
    </>
  );
}

/** The page's `<main>`, marked `aria-busy` while a navigation is in progress. */
export function BusyMain({ className, ...props }: HTMLAttributes<HTMLElement>) {
  const busy = useNavigation().state !== "idle";
  return <main id="main" aria-busy={busy || undefined} className={className} {...props} />;
}
